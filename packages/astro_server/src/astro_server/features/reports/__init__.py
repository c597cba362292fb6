"""features.reports."""
