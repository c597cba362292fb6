"""Prometheus metrics of this process; ``GET /metrics`` exposes them (text format).

Request counts and latencies are per process (scrape every API process); job counts by status
are read from the database at scrape time, so every process reports the same cluster-wide figure.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

REGISTRY = CollectorRegistry(auto_describe=True)

HTTP_REQUESTS = Counter(
    "astro_http_requests_total",
    "HTTP requests by route template, method and status",
    ["route", "method", "status"],
    registry=REGISTRY,
)
HTTP_LATENCY = Histogram(
    "astro_http_request_duration_seconds",
    "HTTP request latency by route template",
    ["route"],
    buckets=(0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
    registry=REGISTRY,
)
JOBS_BY_STATUS = Gauge(
    "astro_jobs", "Jobs in the database by status", ["status"], registry=REGISTRY
)
JOB_TRANSITIONS = Counter(
    "astro_job_transitions_total",
    "Job status changes made by this process",
    ["kind", "status"],
    registry=REGISTRY,
)
CREDITS_CHARGED = Counter(
    "astro_credits_charged_total",
    "Credits debited (net of refunds made on the request path) by operation",
    ["operation"],
    registry=REGISTRY,
)
CREDITS_REFUNDED = Counter(
    "astro_credits_refunded_total",
    "Credits refunded by failed or canceled jobs",
    ["kind"],
    registry=REGISTRY,
)
