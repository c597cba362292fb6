"""Fixed-window rate limits per credential (and per login address / e-mail).

Production shares the counters through Redis so every API process enforces one limit: a Lua
script increments the counter of the current window and sets its expiry in one atomic step, and
takes the time from the Redis server, so processes with skewed clocks agree on the window.
Embedded mode keeps the counters in process memory.

A window is ``window_s`` seconds long (60 for the per-minute tier limits); ``RateLimit-Reset`` is
the number of seconds until the current window ends.

The limiter also carries the API-key revocation generation (``platform/auth/guards.py``): a counter
bumped after every key revocation or rotation, read in the same Redis pipeline as the request's
hit (no extra round trip), so every API process sees a revocation on its next request. In
embedded mode the generation is the modification time (ns) of a file in the data directory, so a
revocation by the operator CLI (another process) reaches the server at once too.
"""

from __future__ import annotations

import hashlib
import math
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError
from redis.exceptions import TimeoutError as RedisTimeoutError

from astro_server.platform.batching import Coalescer
from astro_server.platform.errors import APIError
from astro_server.platform.outages import RATE_LIMITER, DependencyUnavailable


@dataclass(frozen=True)
class RateLimitDecision:
    allowed: bool
    limit: int
    remaining: int
    reset_s: int
    # The key revocation generation read with this hit (see module docstring).
    generation: int = 0

    def headers(self) -> dict[str, str]:
        return {
            "RateLimit-Limit": str(self.limit),
            "RateLimit-Remaining": str(self.remaining),
            "RateLimit-Reset": str(self.reset_s),
        }

    def error(self, message: str = "Rate limit reached; retry after the reset.") -> APIError:
        return APIError(
            429,
            message,
            error="rate_limited",
            headers={**self.headers(), "Retry-After": str(max(1, self.reset_s))},
        )


class RateLimiter(Protocol):
    async def hit(self, key: str, limit: int, window_s: int = 60) -> RateLimitDecision: ...

    async def bump_generation(self) -> int: ...

    async def close(self) -> None: ...


def _decision(count: int, limit: int, reset_s: float, generation: int = 0) -> RateLimitDecision:
    return RateLimitDecision(
        allowed=count <= limit,
        limit=limit,
        remaining=max(0, limit - count),
        reset_s=max(1, math.ceil(reset_s)),
        generation=generation,
    )


class MemoryRateLimiter:
    """Counters in this process (embedded mode: one API process)."""

    def __init__(self, generation_file: Path | None = None) -> None:
        self._windows: dict[str, tuple[int, int]] = {}
        self._generation = 0
        self._generation_file = generation_file

    def _current_generation(self) -> int:
        if self._generation_file is None:
            return self._generation
        try:
            return os.stat(self._generation_file).st_mtime_ns
        except FileNotFoundError:
            return 0

    async def hit(self, key: str, limit: int, window_s: int = 60) -> RateLimitDecision:
        now = time.time()
        index = int(now // window_s)
        start, count = self._windows.get(key, (index, 0))
        count = count + 1 if start == index else 1
        self._windows[key] = (index, count)
        if len(self._windows) > 100_000:  # drop counters of past windows
            self._windows = {k: v for k, v in self._windows.items() if v[0] == index}
        return _decision(count, limit, (index + 1) * window_s - now, self._current_generation())

    async def bump_generation(self) -> int:
        self._generation += 1
        path = self._generation_file
        if path is None:
            return self._generation
        before = self._current_generation()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()
        stamp = max(time.time_ns(), before + 1)  # strictly newer, even within a clock tick
        os.utime(path, ns=(stamp, stamp))
        return stamp

    async def close(self) -> None:
        self._windows.clear()


# KEYS[1] key prefix; ARGV[1] window seconds. Returns {count, milliseconds until window end}.
_HIT_SCRIPT = """
local t = redis.call('TIME')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window_ms = tonumber(ARGV[1]) * 1000
local index = math.floor(now_ms / window_ms)
local key = KEYS[1] .. ':' .. index
local count = redis.call('INCR', key)
if count == 1 then
  redis.call('PEXPIRE', key, window_ms + 1000)
end
return {count, (index + 1) * window_ms - now_ms}
"""


class RedisRateLimiter:
    """Counters in Redis, shared by every API process.

    Each hit runs the script once, atomically, in Redis; hits made while the previous ones are
    on the wire go together in one pipeline (one round trip), each with its own answer.
    """

    def __init__(self, client: Any, namespace: str = "astro:rl") -> None:
        self._client = client
        self._namespace = namespace
        self._generation_key = f"{namespace}:key-generation"
        self._sha = hashlib.sha1(_HIT_SCRIPT.encode()).hexdigest()  # noqa: S324 (Redis's id)
        self._hits: Coalescer[tuple[str, int], tuple[int, int, int]] = Coalescer(self._run_hits)

    async def _run_hits(
        self, hits: list[tuple[str, int]]
    ) -> list[tuple[int, int, int] | Exception]:
        results: list[Any] = [None] * len(hits)
        todo = list(range(len(hits)))
        generation = 0
        for attempt in range(2):
            pipe = self._client.pipeline(transaction=False)
            pipe.get(self._generation_key)
            for i in todo:
                pipe.evalsha(self._sha, 1, hits[i][0], hits[i][1])
            current, *answers = await pipe.execute(raise_on_error=False)
            if not isinstance(current, Exception):
                generation = int(current or 0)
            missing = []
            for i, answer in zip(todo, answers, strict=True):
                if isinstance(answer, NoScriptError) and attempt == 0:
                    missing.append(i)  # not run: Redis did not know the script yet
                else:
                    results[i] = answer
            if not missing:
                break
            await self._client.script_load(_HIT_SCRIPT)
            todo = missing
        return [
            r if isinstance(r, Exception) else (int(r[0]), int(r[1]), generation) for r in results
        ]

    @classmethod
    def from_url(
        cls, url: str, *, socket_timeout: float = 2.0, connect_timeout: float = 2.0
    ) -> RedisRateLimiter:
        from astro_server.platform.redisconn import make_client

        # Reconnects after a Redis restart (platform/redisconn.py); a hit waits at most
        # socket_timeout for an unreachable Redis before the request answers 503.
        return cls(make_client(url, socket_timeout=socket_timeout, connect_timeout=connect_timeout))

    async def hit(self, key: str, limit: int, window_s: int = 60) -> RateLimitDecision:
        try:
            count, reset_ms, generation = await self._hits.submit(
                (f"{self._namespace}:{key}", window_s)
            )
        except (RedisConnectionError, RedisTimeoutError, OSError) as exc:
            raise DependencyUnavailable(RATE_LIMITER) from exc
        return _decision(count, limit, reset_ms / 1000, generation)

    async def bump_generation(self) -> int:
        try:
            return int(await self._client.incr(self._generation_key))
        except (RedisConnectionError, RedisTimeoutError, OSError) as exc:
            raise DependencyUnavailable(RATE_LIMITER) from exc

    async def close(self) -> None:
        await self._client.aclose()
