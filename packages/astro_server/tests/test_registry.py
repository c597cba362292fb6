"""The registry lists everything a process runs: a job kind, periodic task or table that is
declared but not listed fails here, not when a job is queued in production."""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

import pytest
from tortoise.models import Model

import astro_server
from astro_server import registry
from astro_server.platform import db, jobs, runtime
from astro_server.platform.jobs import JobKind
from astro_server.platform.periodic import PeriodicTask
from astro_server.settings import Settings


def _modules() -> list[ModuleType]:
    found = []
    for info in pkgutil.walk_packages(astro_server.__path__, "astro_server."):
        if ".migrations." in info.name or info.name.endswith(".migrations"):
            continue
        found.append(importlib.import_module(info.name))
    return found


MODULES = _modules()


def _declared(kind: type) -> dict[str, object]:
    return {
        f"{module.__name__}.{name}": value
        for module in MODULES
        for name, value in vars(module).items()
        if isinstance(value, kind) and getattr(value, "__module__", module.__name__)
    }


def test_every_declared_job_kind_is_listed_in_the_registry() -> None:
    declared = {id(kind): where for where, kind in _declared(JobKind).items()}
    listed = {id(kind) for kind in registry.JOB_KINDS}
    assert set(declared) - listed == set(), [declared[i] for i in set(declared) - listed]
    names = [kind.name for kind in registry.JOB_KINDS]
    assert len(names) == len(set(names))


def test_every_declared_periodic_task_is_listed_in_the_registry() -> None:
    declared = {id(task): where for where, task in _declared(PeriodicTask).items()}
    listed = {id(task) for task in registry.PERIODIC_TASKS}
    assert set(declared) - listed == set(), [declared[i] for i in set(declared) - listed]


def test_every_module_defining_a_table_is_listed_for_the_orm() -> None:
    defining = {
        module.__name__
        for module in MODULES
        for value in vars(module).values()
        if isinstance(value, type)
        and issubclass(value, Model)
        and value.__module__ == module.__name__
        and not value._meta.abstract
    }
    listed = {module.__name__ for module in registry.MODEL_MODULES}
    # The platform's tables are listed through their package (platform/models/__init__.py).
    platform_tables = {m for m in defining if m.startswith("astro_server.platform.models.")}
    assert defining - platform_tables <= listed
    assert "astro_server.platform.models" in listed


def test_build_platform_registers_the_job_kinds_without_building_the_web_app() -> None:
    wired = registry.build_platform(Settings())
    assert {kind.name for kind in wired.job_kinds} <= set(jobs.registered_kinds())
    assert [task.name for task in wired.periodic_tasks] == [
        task.name for task in registry.PERIODIC_TASKS
    ]
    # One platform per process, installed where everything outside a request reads it.
    assert runtime.current() is wired
    assert runtime.settings() is wired.settings
    assert set(wired.model_modules) == {module.__name__ for module in registry.MODEL_MODULES}


def test_without_a_platform_the_settings_are_an_error_not_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runtime, "_current", None)
    with pytest.raises(RuntimeError, match="build_platform"):
        runtime.settings()
    with pytest.raises(RuntimeError, match="build_platform"):
        db.tortoise_config(Settings())


def test_one_class_is_named_platform() -> None:
    named = {
        f"{module.__name__}.{name}"
        for module in MODULES
        for name, value in vars(module).items()
        if name == "Platform" and isinstance(value, type) and value.__module__ == module.__name__
    }
    assert named == {"astro_server.platform.runtime.Platform"}


async def test_queuing_a_kind_missing_from_the_registry_fails_at_once() -> None:
    import msgspec

    class Nothing(msgspec.Struct):
        pass

    async def run(params: Nothing) -> None:
        return None

    with pytest.raises(RuntimeError, match="not in the registry"):
        await jobs.enqueue_job(
            JobKind("test.unlisted", Nothing, run), Nothing(), account_id="acct_x", livemode=True
        )


def test_the_worker_module_does_not_build_the_web_app() -> None:
    import inspect

    from astro_server import worker

    source = inspect.getsource(worker)
    assert "create_app" not in source
    assert "build_platform" in source
