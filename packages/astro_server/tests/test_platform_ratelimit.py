"""The rate limiter itself: window edges in memory, and one shared count through Redis."""

from __future__ import annotations

import asyncio

import pytest

from astro_server.platform.ratelimit import MemoryRateLimiter, RedisRateLimiter


async def test_memory_limiter_allows_exactly_the_limit_per_window() -> None:
    limiter = MemoryRateLimiter()
    decisions = [await limiter.hit("k", 5) for _ in range(6)]
    assert [d.allowed for d in decisions] == [True] * 5 + [False]
    assert [d.remaining for d in decisions] == [4, 3, 2, 1, 0, 0]
    assert decisions[-1].error().headers["Retry-After"] == str(decisions[-1].reset_s)


async def test_memory_limiter_starts_a_new_window(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1_000_000.5]
    monkeypatch.setattr("astro_server.platform.ratelimit.time.time", lambda: now[0])
    limiter = MemoryRateLimiter()
    assert (await limiter.hit("k", 1)).allowed
    blocked = await limiter.hit("k", 1)
    assert not blocked.allowed
    now[0] += blocked.reset_s
    assert (await limiter.hit("k", 1)).allowed


@pytest.mark.redis
async def test_two_redis_limiters_share_one_count(redis_namespace: str) -> None:
    a = RedisRateLimiter.from_url(redis_namespace)
    b = RedisRateLimiter.from_url(redis_namespace)
    try:
        allowed = [(await (a if i % 2 else b).hit("cred:x", 4)).allowed for i in range(6)]
        assert allowed == [True] * 4 + [False] * 2
        other = await a.hit("cred:y", 4)
        assert (other.allowed, other.remaining) == (True, 3)
    finally:
        await a.close()
        await b.close()


@pytest.mark.redis
async def test_concurrent_redis_hits_each_get_their_own_count(redis_namespace: str) -> None:
    # Hits made together share one pipeline; each is still one atomic increment with its own
    # answer, also when Redis has to be taught the script first (after SCRIPT FLUSH).
    limiter = RedisRateLimiter.from_url(redis_namespace)
    try:
        await limiter._client.script_flush()
        decisions = await asyncio.gather(*(limiter.hit("cred:burst", 25) for _ in range(40)))
        assert sorted(d.remaining for d in decisions) == [0] * 16 + list(range(1, 25))
        assert sum(d.allowed for d in decisions) == 25
        assert len({d.reset_s for d in decisions}) <= 2  # one window (a second may tick)
    finally:
        await limiter.close()
