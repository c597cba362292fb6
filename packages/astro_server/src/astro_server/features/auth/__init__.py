"""features.auth."""
