"""features.uranian."""
