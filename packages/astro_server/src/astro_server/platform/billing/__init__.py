"""platform.billing."""
