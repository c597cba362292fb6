"""Uranian: charts, midpoints and planetary pictures."""
