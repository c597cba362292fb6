"""Campaign content (enterprise): campaigns, their daily content and its scheduled delivery.

store        create, list, read, pause/resume, delete (scoped to the account and its livemode)
content      one day's content: published horoscopes, the markets' cultural facts, social copy;
             JSON and CSV
delivery     the scheduler's tick: each campaign day to the account's webhook endpoints
             (``campaign.content_ready``), exactly once per (campaign, local date)
social_copy  the three copy lengths, counted in grapheme clusters
"""
