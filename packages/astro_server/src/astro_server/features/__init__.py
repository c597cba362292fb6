"""One folder per tag group of the API: its routes, service, models and tasks together.

A feature stands on :mod:`astro_server.platform` and never the other way round; what a feature
runs outside requests (job kinds, periodic tasks) is listed in :mod:`astro_server.registry`.
``common/`` holds what the calculation routes share (birth subjects, pictures, interpretations).
"""
