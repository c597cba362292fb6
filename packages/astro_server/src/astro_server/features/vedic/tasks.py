"""Job handler for the kundli matching batch (``POST /api/v3/vedic/kundli-matching/batch``).

The result holds one entry per record, in request order: ``{"id", "status": "succeeded",
"result": <match>}`` or ``{"id", "status": "failed", "error": {"error": "validation_error",
"field": "records[i].girl.time", "message": ...}}``. One record failing never fails the job.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import msgspec

from astro_calc.errors import CalcInputError
from astro_calc.vedic import BirthSubject, kundli_match
from astro_server.platform.jobs import Concurrency, JobKind, Progress


class BatchParams(msgspec.Struct, frozen=True):
    """The batch as the route validated it (records with ``id``, ``boy``, ``girl``)."""

    records: list[dict[str, Any]]
    school: str = "north"


def _subject(raw: dict[str, Any]) -> BirthSubject:
    return BirthSubject(
        date.fromisoformat(raw["date"]),
        raw["time"],
        float(raw["latitude"]),
        float(raw["longitude"]),
        raw.get("timezoneOffsetMinutes"),
        raw.get("ayanamsa", "lahiri"),
        raw.get("timezone"),
    )


def kundli_matching_batch(params: BatchParams, progress: Progress) -> dict[str, Any]:
    records = params.records
    school = params.school
    results: list[dict[str, Any]] = []
    for i, record in enumerate(records):
        try:
            match = kundli_match(_subject(record["boy"]), _subject(record["girl"]), school=school)
        except CalcInputError as exc:
            results.append(
                {
                    "id": record["id"],
                    "status": "failed",
                    "error": {
                        "error": "validation_error",
                        "field": f"records[{i}].{exc.field}",
                        "message": exc.message,
                    },
                }
            )
        else:
            results.append(
                {"id": record["id"], "status": "succeeded", "result": msgspec.to_builtins(match)}
            )
        progress((i + 1) / len(records))
    return {
        "school": school,
        "succeeded": sum(r["status"] == "succeeded" for r in results),
        "failed": sum(r["status"] == "failed" for r in results),
        "results": results,
    }


#: Batches one API key may have queued or running at once (``ASTRO_BATCHES_PER_KEY``, 20, of up
#: to 50 matches each; issue 36).
KUNDLI_BATCH = JobKind(
    "vedic.kundli_matching_batch",
    BatchParams,
    kundli_matching_batch,
    concurrency=Concurrency("matching batches", "batches_per_key"),
)
