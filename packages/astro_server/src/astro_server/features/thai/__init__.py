"""features.thai."""
