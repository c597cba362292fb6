"""The password policy for logins: checked wherever a password is chosen (accepting an
invitation, the operator's ``create-customer``; a reset, when one exists, calls the same check).

Rules (NIST SP 800-63B section 5.1.1.2 in spirit: length over composition rules, a blocklist of
known-bad choices, no other complexity demands):

* at least :data:`MIN_LENGTH` (12) characters, at most :data:`MAX_LENGTH` (1024);
* not only whitespace, and more than two distinct characters (``aaaaaaaaaaaa``,
  ``abababababab``);
* not in the common-passwords list (``data/common_passwords.txt``, compared case-insensitively);
* not the login's e-mail address or its local part.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Final

MIN_LENGTH: Final = 12
MAX_LENGTH: Final = 1024


@lru_cache(maxsize=1)
def common_passwords() -> frozenset[str]:
    text = resources.files("astro_server.platform.auth").joinpath("data/common_passwords.txt")
    lines = text.read_text("utf-8").splitlines()
    return frozenset(
        line.strip().lower() for line in lines if line.strip() and not line.startswith("#")
    )


def password_problem(password: str, email: str | None = None) -> str | None:
    """Why ``password`` is refused (a sentence for the field's message), or None if it passes."""
    if len(password) < MIN_LENGTH:
        return f"must be at least {MIN_LENGTH} characters"
    if len(password) > MAX_LENGTH:
        return f"must be at most {MAX_LENGTH} characters"
    if not password.strip():
        return "must not be only spaces"
    if len(set(password)) <= 2:
        return "must use more than two different characters"
    folded = password.strip().lower()
    if folded in common_passwords():
        return "is one of the most common passwords; choose another"
    if email:
        address = email.strip().lower()
        if folded in (address, address.split("@", 1)[0]):
            return "must not be the e-mail address"
    return None


__all__ = ["MAX_LENGTH", "MIN_LENGTH", "common_passwords", "password_problem"]
