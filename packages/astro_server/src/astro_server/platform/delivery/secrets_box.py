"""The server's one AEAD scheme now lives at :mod:`astro_server.platform.secrets_box` (the data
keys of :mod:`astro_server.platform.datakeys` use it too, without depending on the delivery
package); re-exported here for the delivery code that imports it from this path."""

from astro_server.platform.secrets_box import (
    SecretBox,
    SecretDecryptionError,
    derive_key,
)

__all__ = ["SecretBox", "SecretDecryptionError", "derive_key"]
