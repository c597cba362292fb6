"""Cultural Intelligence (enterprise): market calendars and best dates (routes.py), and campaigns
with their daily content and scheduled delivery (campaign_routes.py, campaigns/, models.py,
tasks.py).
"""
