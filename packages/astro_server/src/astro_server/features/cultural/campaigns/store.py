"""Campaigns of an account: create, list (newest first, cursor paging), read, pause/resume,
delete. Every lookup is scoped to the account and its livemode: another account's campaign, or a
test campaign seen with a live key, is "not found".

Scheduling state: ``next_due_at`` is the instant of the next delivery whose local date lies in
``start..end`` (:func:`next_delivery`), NULL when paused or when the campaign has no day left.
A campaign created (or resumed) after a day's delivery time starts with the next day.
"""

from __future__ import annotations

import re
import secrets
from datetime import date, datetime
from typing import Any

from astro_server.features.cultural.models import Campaign
from astro_server.platform import clock
from astro_server.platform.delivery.schedule import (
    delivery_zone,
    due_at,
    next_due,
    parse_delivery_time,
)
from astro_server.platform.errors import not_found
from astro_server.platform.paging import newest_first

MAX_DAYS = 92
_CAMPAIGN_ID = re.compile(r"cmp_[a-f0-9]{24}")
MAX_NAME = 120


def next_delivery(
    timezone: str, delivery_time: str, start: date, end: date, after: datetime
) -> datetime | None:
    """The first delivery instant after ``after`` whose local date lies in ``start..end``."""
    following = next_due(timezone, delivery_time, after)
    if following.local_date < start:
        return due_at(start, parse_delivery_time(delivery_time), delivery_zone(timezone))
    if following.local_date > end:
        return None
    return following.due_at


def campaign_view(campaign: Campaign) -> dict[str, Any]:
    return {
        "id": campaign.id,
        "name": campaign.name,
        "start": campaign.start.isoformat(),
        "end": campaign.end.isoformat(),
        "signs": list(campaign.signs),
        "languages": list(campaign.languages),
        "markets": list(campaign.markets),
        "delivery": {"time": campaign.delivery_time, "timezone": campaign.timezone},
        "active": campaign.active,
        "livemode": campaign.livemode,
        "next_delivery_at": clock.iso(campaign.next_due_at),
        "credits_charged": campaign.credits_charged,
        "created_at": clock.iso(campaign.created_at),
        "updated_at": clock.iso(campaign.updated_at),
    }


async def create_campaign(
    *,
    account_id: str,
    livemode: bool,
    name: str,
    start: date,
    end: date,
    signs: list[str],
    languages: list[str],
    markets: list[str],
    delivery_time: str,
    timezone: str,
    credits_charged: int,
    now: datetime,
) -> Campaign:
    """Store a validated campaign and its first delivery instant."""
    return await Campaign.create(
        id="cmp_" + secrets.token_hex(12),
        account_id=account_id,
        livemode=livemode,
        name=name,
        start=start,
        end=end,
        signs=signs,
        languages=languages,
        markets=markets,
        delivery_time=delivery_time,
        timezone=timezone,
        active=True,
        next_due_at=next_delivery(timezone, delivery_time, start, end, now),
        credits_charged=credits_charged,
    )


async def owned_campaign(account_id: str, livemode: bool, campaign_id: str) -> Campaign:
    if not _CAMPAIGN_ID.fullmatch(campaign_id):
        raise not_found("Campaign")
    campaign = await Campaign.get_or_none(id=campaign_id, account_id=account_id, livemode=livemode)
    if campaign is None:
        raise not_found("Campaign")
    return campaign


async def list_campaigns(
    account_id: str, livemode: bool, *, limit: int, cursor: str | None
) -> tuple[list[Campaign], str | None]:
    """Newest first; ``cursor`` is the id of the last item of the previous page."""
    query = Campaign.filter(account_id=account_id, livemode=livemode)
    return await newest_first(query, limit=limit, cursor=cursor)


async def update_campaign(
    campaign: Campaign, *, name: str | None, active: bool | None, now: datetime
) -> Campaign:
    """Rename and/or pause (``active`` false: no delivery) or resume (from the next due day).

    Resuming does not back-fill: the days whose delivery time passed while the campaign was
    paused are not sent (their content stays readable with ``GET .../content?date=``); the
    first delivery is the next one after ``now`` (today's, when its time is still ahead).
    ``active: true`` on a campaign that is not paused changes nothing (rescheduling it would
    skip a day that fell due but that the scheduler has not taken yet)."""
    changes: dict[str, Any] = {}
    if name is not None:
        changes["name"] = name
    if active is False:
        changes.update(active=False, next_due_at=None)
    elif active is True and not campaign.active:
        changes.update(
            active=True,
            next_due_at=next_delivery(
                campaign.timezone, campaign.delivery_time, campaign.start, campaign.end, now
            ),
        )
    if changes:
        await Campaign.filter(id=campaign.id).update(**changes, updated_at=now)
        await campaign.refresh_from_db()
    return campaign


async def delete_campaign(campaign: Campaign) -> None:
    """Delete the campaign and its day records; deliveries already made stay in the endpoints'
    logs."""
    await campaign.delete()
