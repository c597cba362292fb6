"""Vedic: charts, matching (and its batch job in tasks.py), dasha and remedies."""
