"""Cursor pages: iterate one page, or every item across pages (fetched lazily)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Generator, Iterator
from typing import Generic, TypeVar

from astro_sdk._response import APIResponse

__all__ = ["AsyncCursorPage", "AsyncCursorPager", "CursorPage"]

ItemT = TypeVar("ItemT")


class CursorPage(Generic[ItemT]):
    """One page of a list. Iterating the page walks every item of every following page too;
    ``data`` is this page only."""

    def __init__(
        self,
        data: list[ItemT],
        next_cursor: str | None,
        fetch_page: Callable[[str], CursorPage[ItemT]],
        api_response: APIResponse | None = None,
    ) -> None:
        self.data = data
        self.next_cursor = next_cursor
        self.api_response = api_response
        self._fetch_page = fetch_page
        self._next_page: CursorPage[ItemT] | None = None

    def has_next_page(self) -> bool:
        return self.next_cursor is not None

    def get_next_page(self) -> CursorPage[ItemT]:
        """The following page (fetched once, then remembered)."""
        if self.next_cursor is None:
            raise RuntimeError("this is the last page: check has_next_page() first")
        if self._next_page is None:
            self._next_page = self._fetch_page(self.next_cursor)
        return self._next_page

    def iter_pages(self) -> Iterator[CursorPage[ItemT]]:
        page: CursorPage[ItemT] = self
        while True:
            yield page
            if page.next_cursor is None:
                return
            page = page.get_next_page()

    def __iter__(self) -> Iterator[ItemT]:
        for page in self.iter_pages():
            yield from page.data


class AsyncCursorPage(Generic[ItemT]):
    """The async twin of :class:`CursorPage`: ``async for`` walks every item across pages."""

    def __init__(
        self,
        data: list[ItemT],
        next_cursor: str | None,
        fetch_page: Callable[[str], Awaitable[AsyncCursorPage[ItemT]]],
        api_response: APIResponse | None = None,
    ) -> None:
        self.data = data
        self.next_cursor = next_cursor
        self.api_response = api_response
        self._fetch_page = fetch_page
        self._next_page: AsyncCursorPage[ItemT] | None = None

    def has_next_page(self) -> bool:
        return self.next_cursor is not None

    async def get_next_page(self) -> AsyncCursorPage[ItemT]:
        """The following page (fetched once, then remembered)."""
        if self.next_cursor is None:
            raise RuntimeError("this is the last page: check has_next_page() first")
        if self._next_page is None:
            self._next_page = await self._fetch_page(self.next_cursor)
        return self._next_page

    async def iter_pages(self) -> AsyncIterator[AsyncCursorPage[ItemT]]:
        page: AsyncCursorPage[ItemT] = self
        while True:
            yield page
            if page.next_cursor is None:
                return
            page = await page.get_next_page()

    async def __aiter__(self) -> AsyncIterator[ItemT]:
        async for page in self.iter_pages():
            for item in page.data:
                yield item


class AsyncCursorPager(Generic[ItemT]):
    """What an async ``list`` returns: ``await`` it for the first page, or ``async for`` over
    it for every item across pages."""

    def __init__(self, first_page: Callable[[], Awaitable[AsyncCursorPage[ItemT]]]) -> None:
        self._first_page = first_page

    def __await__(self) -> Generator[object, None, AsyncCursorPage[ItemT]]:
        return self._first_page().__await__()

    async def __aiter__(self) -> AsyncIterator[ItemT]:
        page = await self._first_page()
        async for item in page:
            yield item
