"""Tarot & Numerology: tarot draws and the card list."""
