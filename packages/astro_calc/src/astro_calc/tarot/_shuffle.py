"""Shuffles for the tarot deck: reproducible from a seed, or cryptographically random.

The seeded shuffle is our own, so it cannot change with a Python release (``random`` makes no such
promise across versions): a byte stream of HMAC-SHA256 blocks keyed by the seed (message = a
64-bit big-endian block counter) feeds unbiased integers (rejection sampling on 64-bit words) to a
Fisher-Yates shuffle (Durstenfeld's in-place form, from the last position down). One bit per deck
position is then read for the reversal flags, whether or not reversals are asked for, so turning
reversals off never changes which cards are drawn.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Final

#: Names the algorithm and its version; echoed in readings so a stored seed can be replayed.
SEEDED_ALGORITHM: Final = "hmac-sha256-fisher-yates/v1"
SECURE_ALGORITHM: Final = "secrets"

_KEY_PREFIX: Final = b"astro-calc/tarot/v1\x00"
_WORD: Final = 1 << 64


class SeededStream:
    """Deterministic stream of 64-bit words derived from a seed with HMAC-SHA256."""

    def __init__(self, seed: str) -> None:
        self._key = _KEY_PREFIX + seed.encode("utf-8")
        self._counter = 0
        self._buffer = b""

    def _word(self) -> int:
        if len(self._buffer) < 8:
            block = hmac.new(self._key, self._counter.to_bytes(8, "big"), hashlib.sha256).digest()
            self._counter += 1
            self._buffer += block
        word, self._buffer = self._buffer[:8], self._buffer[8:]
        return int.from_bytes(word, "big")

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) without modulo bias."""
        limit = _WORD - (_WORD % n)
        while True:
            value = self._word()
            if value < limit:
                return value % n

    def bit(self) -> bool:
        return bool(self._word() & 1)


def seeded_order(size: int, seed: str) -> tuple[list[int], list[bool]]:
    """Deck order (a permutation of range(size)) and a reversal flag per position, from a seed."""
    stream = SeededStream(seed)
    order = list(range(size))
    for i in range(size - 1, 0, -1):
        j = stream.below(i + 1)
        order[i], order[j] = order[j], order[i]
    flags = [stream.bit() for _ in range(size)]
    return order, flags


def secure_order(size: int) -> tuple[list[int], list[bool]]:
    """Deck order and reversal flags from the operating system's CSPRNG (``secrets``)."""
    order = list(range(size))
    for i in range(size - 1, 0, -1):
        j = secrets.randbelow(i + 1)
        order[i], order[j] = order[j], order[i]
    flags = [bool(secrets.randbits(1)) for _ in range(size)]
    return order, flags
