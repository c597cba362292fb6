"""features.vedic."""
