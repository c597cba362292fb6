"""features.team."""
