"""features.western."""
