"""Horoscopes: the daily and range routes, publishing the coming days (service.py, the periodic
task in tasks.py) and the published rows (models.py).
"""
