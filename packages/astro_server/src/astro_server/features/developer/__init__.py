"""features.developer."""
