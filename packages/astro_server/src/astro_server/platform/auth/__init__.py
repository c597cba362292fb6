"""Credentials and who may do what: the route guards that build the Caller (guards.py), API keys
(keys.py), scopes, team roles, accounts and credential hashing.
"""
