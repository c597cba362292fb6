"""features.feeds."""
