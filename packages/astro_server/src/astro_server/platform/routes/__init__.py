"""platform.routes."""
