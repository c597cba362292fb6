"""platform.auth."""
