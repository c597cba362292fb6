"""Config for tortoise's own CLI when writing new migrations (developers only):

uv run tortoise -c astro_server.models.makemigrations_config.TORTOISE_ORM makemigrations
"""

TORTOISE_ORM = {
    "connections": {"default": "sqlite://:memory:"},
    "apps": {
        "astro": {
            "models": ["astro_server.models"],
            "default_connection": "default",
            "migrations": "astro_server.models.migrations",
        }
    },
    "use_tz": True,
    "timezone": "UTC",
}
