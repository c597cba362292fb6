"""Astro reference server: Quart API, taskiq workers and scheduler over astro-calc."""

__version__ = "0.1.0"
