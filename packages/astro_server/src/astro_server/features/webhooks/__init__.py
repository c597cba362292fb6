"""features.webhooks."""
