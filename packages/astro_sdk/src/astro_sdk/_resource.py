"""Base classes of resources (one per tag group) and the descriptor that attaches them.

``resource_group(SyncCls, AsyncCls)`` on the shared base of both clients gives
``AstroClient().jobs`` a ``Jobs`` and ``AsyncAstroClient().jobs`` an ``AsyncJobs``, made once per
client instance. Each sync class is generated from its async twin (``scripts/unasync.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, overload

from astro_sdk._operation import Operation

if TYPE_CHECKING:
    from astro_sdk._client import AstroClient, AsyncAstroClient

__all__ = ["AsyncResource", "SyncResource", "resource_group"]


class SyncResource:
    """A tag group's methods on the sync client. ``operations`` lists the routes it calls."""

    operations: ClassVar[tuple[Operation[Any], ...]] = ()

    def __init__(self, client: AstroClient) -> None:
        self._client = client


class AsyncResource:
    """A tag group's methods on the async client; the same ``operations`` as its sync twin."""

    operations: ClassVar[tuple[Operation[Any], ...]] = ()

    def __init__(self, client: AsyncAstroClient) -> None:
        self._client = client


SyncT = TypeVar("SyncT", bound=SyncResource)
AsyncT = TypeVar("AsyncT", bound=AsyncResource)


class resource_group(Generic[SyncT, AsyncT]):
    """Attach a tag group's sync and async resource classes to the clients."""

    def __init__(self, sync_cls: type[SyncT], async_cls: type[AsyncT]) -> None:
        if {op.operation_id for op in sync_cls.operations} != {
            op.operation_id for op in async_cls.operations
        }:
            raise TypeError(f"{sync_cls.__name__} and {async_cls.__name__} differ in operations")
        self.sync_cls = sync_cls
        self.async_cls = async_cls
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type) -> resource_group[SyncT, AsyncT]: ...

    @overload
    def __get__(self, obj: AstroClient, owner: type) -> SyncT: ...

    @overload
    def __get__(self, obj: AsyncAstroClient, owner: type) -> AsyncT: ...

    def __get__(self, obj: object, owner: type) -> Any:
        if obj is None:
            return self
        cache: dict[str, Any] = obj.__dict__.setdefault("_resources", {})
        resource = cache.get(self.name)
        if resource is None:
            from astro_sdk._client import AsyncAstroClient

            cls = self.async_cls if isinstance(obj, AsyncAstroClient) else self.sync_cls
            resource = cls(obj)  # type: ignore[arg-type]
            cache[self.name] = resource
        return resource
