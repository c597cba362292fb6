"""features.chinese."""
