"""Each campaign day delivered at the campaign's local time, exactly once per (campaign, date).

The mechanism of the horoscope feeds (:mod:`astro_server.platform.delivery.engine`):

1. The scheduler's tick takes the active campaigns whose indexed ``next_due_at`` has passed and
   asks :func:`~astro_server.platform.delivery.schedule.due_deliveries` which local dates fell
   due since then (gaps and repeated hours of daylight saving as there; dates more than six
   hours late are skipped), keeping those inside ``start..end``.
2. For each such date it builds the day's content, then in ONE transaction inserts the
   ``campaign_days`` row (unique per campaign and local date) and the event's delivery rows, one
   per active endpoint of the account subscribed to ``campaign.content_ready`` (same
   livemode). A second scheduler, or the same tick run twice, fails on the unique row and its
   transaction writes nothing: exactly one event per campaign and date.
3. After the commit the deliveries go to the workers (:func:`events.hand_over`); from there the
   one delivery engine signs, attempts, retries, counts failures and disables. If the hand-over
   fails, the delivery tick dispatches them.
4. ``next_due_at`` moves to the next delivery in range, or NULL after the last day.
"""

from __future__ import annotations

import logging
import secrets
from datetime import date, datetime

from tortoise.exceptions import IntegrityError
from tortoise.transactions import in_transaction

from astro_server.features.cultural.campaigns.content import day_content, delivery_data
from astro_server.features.cultural.campaigns.store import next_delivery
from astro_server.features.cultural.models import Campaign, CampaignDay
from astro_server.platform.delivery import engine as feed_pipeline
from astro_server.platform.delivery import events
from astro_server.platform.delivery.schedule import due_deliveries
from astro_server.platform.models.delivery import FeedDelivery

log = logging.getLogger("astro_server.campaigns")

EVENT_TYPE = "campaign.content_ready"
BATCH = 200


async def deliver_day(
    campaign: Campaign, day: date, now: datetime, kick: feed_pipeline.Kick | None = None
) -> str | None:
    """Emit the day's ``campaign.content_ready`` event unless it was emitted already; returns
    the event id, or None when another scheduler (or an earlier tick) did it."""
    if await CampaignDay.exists(campaign_id=campaign.id, local_date=day):
        return None
    if not await Campaign.exists(id=campaign.id, active=True):
        return None  # paused (or deleted) since the tick took it: not delivered
    data = delivery_data(await day_content(campaign, day), campaign)
    event_id = "evt_" + secrets.token_hex(12)
    try:
        async with in_transaction() as conn:
            rows = await events.event_deliveries(
                campaign.account_id, EVENT_TYPE, event_id, data, campaign.livemode, now, conn
            )
            await CampaignDay.create(
                campaign_id=campaign.id,
                local_date=day,
                event_id=event_id,
                endpoints=len(rows),
                using_db=conn,
            )
            if rows:
                await FeedDelivery.bulk_create(rows, using_db=conn)
    except IntegrityError:
        return None  # the (campaign, local date) row exists: delivered by someone else
    await events.hand_over([r.id for r in rows], event_id, now, kick)
    return event_id


async def tick(now: datetime, kick: feed_pipeline.Kick | None = None) -> int:
    """Deliver the campaign days that fell due (up to :data:`BATCH` campaigns per tick);
    returns how many events were emitted. A day whose content failed keeps its campaign due,
    so the next tick tries again (until it is six hours late)."""
    emitted = 0
    due = (
        await Campaign.filter(next_due_at__lte=now, active=True)
        .order_by("next_due_at")
        .limit(BATCH)
    )
    for campaign in due:
        assert campaign.next_due_at is not None
        failed = False
        for delivery in due_deliveries(
            campaign.timezone, campaign.delivery_time, now, not_before=campaign.next_due_at
        ):
            if not campaign.start <= delivery.local_date <= campaign.end:
                continue
            try:
                if await deliver_day(campaign, delivery.local_date, now, kick):
                    emitted += 1
            except Exception:
                failed = True
                log.exception(
                    "campaign %s: content of %s not delivered", campaign.id, delivery.local_date
                )
        if failed:
            continue
        following = next_delivery(
            campaign.timezone, campaign.delivery_time, campaign.start, campaign.end, now
        )
        await Campaign.filter(id=campaign.id, next_due_at=campaign.next_due_at).update(
            next_due_at=following
        )
    return emitted
