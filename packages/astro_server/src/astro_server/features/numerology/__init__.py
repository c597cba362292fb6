"""Tarot & Numerology: the numerology profile route."""
