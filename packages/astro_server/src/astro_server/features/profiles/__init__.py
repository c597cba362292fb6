"""features.profiles."""
