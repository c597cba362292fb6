"""Everything the server runs, listed once.

Like starlette's ``routes=[...]`` and ``middleware=[...]``: reading this module tells what a
process serves and runs; importing a feature module registers nothing. :func:`build_platform`
is what every entry point calls, the web app (``app.create_app``), the worker, the scheduler and
the CLI, each taking the parts it needs:

* :func:`blueprints`: the HTTP routes, one blueprint per tag group, in the OpenAPI document's
  order (the web app only; the worker never builds it);
* :data:`JOB_KINDS`: every kind of asynchronous job, with its typed parameters
  (:class:`~astro_server.platform.jobs.JobKind`);
* :data:`PERIODIC_TASKS`: what the scheduler runs
  (:class:`~astro_server.platform.periodic.PeriodicTask`);
* :data:`BROKER_TASKS`: the taskiq tasks (run one job; one webhook delivery attempt);
* :data:`MODEL_MODULES`: every module defining tables (tortoise's one app, ``astro``).

:func:`build_platform` returns the process's one
:class:`~astro_server.platform.runtime.Platform` and installs it (``runtime.install``): the
settings every part of the process reads, never the environment behind its back.

``tests/test_registry.py`` fails when a job kind, periodic task or model module exists that is
not listed here.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any

from astro_server.features.brands import models as brand_models
from astro_server.features.cultural import models as cultural_models
from astro_server.features.cultural import tasks as cultural_tasks
from astro_server.features.horoscopes import models as horoscope_models
from astro_server.features.horoscopes import tasks as horoscope_tasks
from astro_server.features.profiles import models as profile_models
from astro_server.features.reports import models as report_models
from astro_server.features.reports.hr_service import HR_REPORT
from astro_server.features.reports.service import NATAL_REPORT
from astro_server.features.vedic.tasks import KUNDLI_BATCH
from astro_server.features.visual import models as visual_models
from astro_server.features.visual.service import READING
from astro_server.features.western import models as western_models
from astro_server.platform import jobs, maintenance
from astro_server.platform import models as platform_models
from astro_server.platform.broker import RUN_JOB_TASK
from astro_server.platform.delivery import tasks as delivery_tasks
from astro_server.platform.delivery.engine import DELIVER_TASK
from astro_server.platform.jobs import JobKind
from astro_server.platform.periodic import PeriodicTask
from astro_server.platform.runtime import Platform
from astro_server.settings import Settings

if TYPE_CHECKING:
    from quart import Blueprint

JOB_KINDS: tuple[JobKind[Any], ...] = (KUNDLI_BATCH, NATAL_REPORT, HR_REPORT, READING)

PERIODIC_TASKS: tuple[PeriodicTask, ...] = (
    maintenance.SWEEP_JOBS,
    maintenance.REFUND_ABANDONED_CLAIMS,
    maintenance.PURGE_IDEMPOTENCY_RECORDS,
    maintenance.DELETE_EXPIRED_FILES,
    maintenance.ROLL_UP_USAGE,
    delivery_tasks.HOROSCOPE_FEEDS_TICK,
    cultural_tasks.CAMPAIGNS_TICK,
    horoscope_tasks.PUBLISH_DAILY_HOROSCOPES,
)

BROKER_TASKS: dict[str, Callable[..., Awaitable[Any]]] = {
    RUN_JOB_TASK: jobs.run_job,
    DELIVER_TASK: delivery_tasks.deliver_task,
}

#: Every module that defines tables (tortoise imports them by name; ``tests/test_registry.py``
#: fails on a model module missing here).
MODEL_MODULES: tuple[ModuleType, ...] = (
    platform_models,
    brand_models,
    cultural_models,
    horoscope_models,
    profile_models,
    report_models,
    visual_models,
    western_models,
)


def blueprints() -> list[Blueprint]:
    """Every blueprint, in registration order (the OpenAPI document lists paths in it)."""
    from astro_server.features.auth.routes import blueprint as auth
    from astro_server.features.brands.routes import blueprint as brand_profiles
    from astro_server.features.chinese.routes import blueprint as chinese
    from astro_server.features.chinese.ziwei_routes import blueprint as chinese_ziwei
    from astro_server.features.cultural.campaign_routes import blueprint as campaigns
    from astro_server.features.cultural.routes import blueprint as cultural
    from astro_server.features.developer.estimates import blueprint as estimates
    from astro_server.features.developer.jobs_routes import blueprint as jobs_routes
    from astro_server.features.developer.routes import blueprint as developer
    from astro_server.features.developer.session_routes import blueprint as developer_session
    from astro_server.features.feeds.routes import blueprint as horoscope_feeds
    from astro_server.features.horoscopes.routes import blueprint as horoscopes
    from astro_server.features.human_design.routes import blueprint as human_design
    from astro_server.features.numerology.routes import blueprint as numerology
    from astro_server.features.places.routes import blueprint as places
    from astro_server.features.profiles.routes import blueprint as profiles
    from astro_server.features.reports.hr_routes import blueprint as hr
    from astro_server.features.reports.routes import blueprint as reports
    from astro_server.features.tarot.routes import blueprint as tarot
    from astro_server.features.team.routes import blueprint as team
    from astro_server.features.thai.routes import blueprint as thai
    from astro_server.features.uranian.routes import blueprint as uranian
    from astro_server.features.vedic.routes import blueprint as vedic
    from astro_server.features.visual.customer_routes import blueprint as customer_visual
    from astro_server.features.visual.delivery_routes import blueprint as visual_deliveries
    from astro_server.features.visual.routes import blueprint as visual_readings
    from astro_server.features.webhooks.routes import blueprint as webhook_endpoints
    from astro_server.features.western.astrocartography import (
        blueprint as western_astrocartography,
    )
    from astro_server.features.western.feed_routes import blueprint as calendar_feeds
    from astro_server.features.western.feed_routes import public as calendar_feed_files
    from astro_server.features.western.routes import blueprint as western
    from astro_server.features.western.sky_routes import blueprint as western_timing
    from astro_server.features.western.traditional_routes import (
        blueprint as western_traditional,
    )
    from astro_server.platform.files.routes import blueprint as files
    from astro_server.platform.routes.docs import blueprint as docs
    from astro_server.platform.routes.health import blueprint as health
    from astro_server.platform.routes.metrics import blueprint as metrics
    from astro_server.portal import blueprint as portal

    return [
        docs,
        health,
        metrics,
        auth,
        estimates,
        jobs_routes,
        developer,
        developer_session,
        horoscope_feeds,
        files,
        webhook_endpoints,
        brand_profiles,
        visual_readings,
        customer_visual,
        visual_deliveries,
        vedic,
        tarot,
        numerology,
        horoscopes,
        western,
        western_timing,
        calendar_feeds,
        calendar_feed_files,
        western_astrocartography,
        western_traditional,
        uranian,
        thai,
        chinese,
        chinese_ziwei,
        human_design,
        cultural,
        portal,  # the customer portal: web pages over the session routes
        reports,
        hr,
        profiles,
        team,
        campaigns,
        places,
    ]


def build_platform(settings: Settings) -> Platform:
    """The platform for ``settings``, installed as this process's (``runtime.install``): the
    job kinds it may queue and run, the broker's tasks, its model modules and the features'
    parts the platform calls without importing them. Every entry point calls it once before
    anything else (the web app, the worker, the scheduler, the CLI's commands); no web app is
    built here."""
    from astro_server.features import visual
    from astro_server.features.horoscopes.service import get_or_publish
    from astro_server.features.profiles.service import resolve_references
    from astro_server.features.reports.render import renderer
    from astro_server.platform import broker, runtime
    from astro_server.platform.routes import health

    wired = Platform(
        settings,
        job_kinds=JOB_KINDS,
        periodic_tasks=PERIODIC_TASKS,
        broker_tasks=dict(BROKER_TASKS),
        model_modules=tuple(module.__name__ for module in MODEL_MODULES),
        resolve_references=resolve_references,
        horoscope_source=get_or_publish,
    )
    runtime.install(wired)
    # Optional capabilities /readyz reports (the PDF renderer's Chromium, the visual models).
    # Looked up at each check, so a test may replace them.
    health.register_capability(
        health.Capability("pdf_renderer", lambda: renderer.missing_components())
    )
    health.register_capability(
        health.Capability("visual", lambda: visual.missing_visual_dependencies(), visual.EXTRA_HINT)
    )
    jobs.register_job_kinds(wired.job_kinds)
    for name, function in wired.broker_tasks.items():
        broker.register_task(name, function)
    return wired
