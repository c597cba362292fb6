"""The server's structure, read from its source: who may touch Quart's request globals.

A handler receives who is calling as its ``caller`` argument (the auth guards and ``@billable``
pass it, ``platform/auth/guards.py``); Quart's ``g`` belongs to the request plumbing alone. These
tests parse every module of ``astro_server`` with :mod:`ast` and name each module and line that
breaks the rule, so a new ``g.account`` in a route fails here instead of in review.
"""

from __future__ import annotations

import ast
from pathlib import Path

import astro_server

SOURCE = Path(astro_server.__file__).parent

#: The request plumbing: the modules that may read or set attributes of Quart's ``g``.
PLUMBING = frozenset(
    {
        "app.py",  # request id, timing, credit and rate-limit headers, the access log
        "platform/auth/guards.py",  # authenticates and builds the Caller
        "platform/handler_args.py",  # keeps the Caller for the plumbing and the handler
        "platform/billing/billable.py",  # the charge of the request being served
        "platform/logs.py",  # the request id on log lines
        "platform/responses.py",  # the request id on error bodies
        "portal/__init__.py",  # the portal's own request context (language, session cookie)
        "portal/client.py",  # forwards the portal's session and request id to the API
    }
)


def _modules() -> list[tuple[str, ast.Module]]:
    return [
        (path.relative_to(SOURCE).as_posix(), ast.parse(path.read_text(encoding="utf-8")))
        for path in sorted(SOURCE.rglob("*.py"))
    ]


def _imports_quart_g(tree: ast.Module) -> bool:
    return any(
        isinstance(node, ast.ImportFrom)
        and node.module == "quart"
        and any(alias.name == "g" for alias in node.names)
        for node in ast.walk(tree)
    )


def _g_uses(tree: ast.Module) -> list[int]:
    """Lines that touch ``g`` imported from quart: ``g.x``, ``getattr(g, ...)`` and the like."""
    if not _imports_quart_g(tree):
        return []
    return sorted(
        {
            node.lineno
            for node in ast.walk(tree)
            if isinstance(node, ast.Name) and node.id == "g" and isinstance(node.ctx, ast.Load)
        }
    )


def test_the_source_tree_is_found() -> None:
    names = {name for name, _ in _modules()}
    assert "platform/auth/guards.py" in names
    assert "features/developer/routes.py" in names


def test_g_is_used_only_by_the_request_plumbing() -> None:
    found = {
        name: lines
        for name, tree in _modules()
        if name not in PLUMBING and (lines := _g_uses(tree))
    }
    assert found == {}, f"quart.g outside the request plumbing (module: lines): {found}"


def test_the_plumbing_allowlist_names_existing_modules() -> None:
    names = {name for name, _ in _modules()}
    assert names >= PLUMBING


def test_features_and_portal_never_fetch_the_caller() -> None:
    """Handlers declare ``caller: Caller``; nothing below the guards calls ``current_caller``."""
    calls = {
        name: sorted(
            node.lineno
            for node in ast.walk(tree)
            if isinstance(node, ast.Call)
            and (
                (isinstance(node.func, ast.Name) and node.func.id == "current_caller")
                or (isinstance(node.func, ast.Attribute) and node.func.attr == "current_caller")
            )
        )
        for name, tree in _modules()
        if name.startswith(("features/", "portal/"))
    }
    assert {name: lines for name, lines in calls.items() if lines} == {}


def test_no_route_sniffs_the_key_prefix_for_the_mode() -> None:
    """Test or live mode is ``caller.livemode``, set by the guard from the key's own row."""
    sniffing = [
        name
        for name, tree in _modules()
        if name.startswith(("features/", "portal/"))
        and any(
            isinstance(node, ast.Constant) and node.value in ("ak_test_", "ak_live_")
            for node in ast.walk(tree)
        )
    ]
    assert sniffing == []
