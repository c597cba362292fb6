"""Customer delivery: horoscope feed subscriptions (session routes) delivered by the platform's
delivery engine.
"""
