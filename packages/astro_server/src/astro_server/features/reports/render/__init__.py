"""Branded reports: HTML built from escaped templates, printed to PDF by Chromium.

:mod:`.natal` builds the natal report's HTML, :mod:`.renderer` prints it (one browser per
process, no network, no script), :mod:`.branding` holds the white-label brand.
"""
