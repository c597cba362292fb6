"""Enterprise workflows: encrypted client profiles (service.py, crypto.py: per-account data keys,
blind indexes, crypto-shred) and their routes; profile references in any birth subject.
"""
