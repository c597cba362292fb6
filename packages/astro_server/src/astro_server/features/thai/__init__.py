"""Thai Astrology: calendar, auspicious times, lunar dates, festivals and the Taksa wheel."""
