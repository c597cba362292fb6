"""Config for tortoise's own CLI when writing new migrations (developers only):

uv run tortoise -c astro_server.platform.models.makemigrations_config.TORTOISE_ORM makemigrations
"""

from astro_server.platform.db import MIGRATIONS_MODULE, MODEL_MODULES

TORTOISE_ORM = {
    "connections": {"default": "sqlite://:memory:"},
    "apps": {
        "astro": {
            "models": list(MODEL_MODULES),
            "default_connection": "default",
            "migrations": MIGRATIONS_MODULE,
        }
    },
    "use_tz": True,
    "timezone": "UTC",
}
