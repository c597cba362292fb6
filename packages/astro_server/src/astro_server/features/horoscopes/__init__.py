"""features.horoscopes."""
