"""The platform's own routes: health and readiness, the OpenAPI docs, metrics."""
