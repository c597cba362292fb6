"""Brand profiles: a report's white-label brand (name, colour, logo fetched once through the SSRF-
safe client, sanitised SVG).
"""
