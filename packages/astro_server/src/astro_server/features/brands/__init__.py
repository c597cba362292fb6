"""features.brands."""
