"""Place search: a city name typed by a person to coordinates and an IANA time zone."""
