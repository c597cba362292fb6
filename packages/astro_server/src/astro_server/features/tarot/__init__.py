"""features.tarot."""
