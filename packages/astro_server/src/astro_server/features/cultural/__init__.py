"""features.cultural."""
