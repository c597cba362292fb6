"""features.numerology."""
