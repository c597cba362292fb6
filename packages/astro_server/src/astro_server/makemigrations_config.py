"""Config for tortoise's own CLI when writing new migrations (developers only):

uv run tortoise -c astro_server.makemigrations_config.TORTOISE_ORM makemigrations
"""

from astro_server.platform.db import MIGRATIONS_MODULE
from astro_server.registry import MODEL_MODULES

TORTOISE_ORM = {
    "connections": {"default": "sqlite://:memory:"},
    "apps": {
        "astro": {
            "models": [module.__name__ for module in MODEL_MODULES],
            "default_connection": "default",
            "migrations": MIGRATIONS_MODULE,
        }
    },
    "use_tz": True,
    "timezone": "UTC",
}
