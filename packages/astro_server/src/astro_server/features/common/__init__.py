"""features.common."""
