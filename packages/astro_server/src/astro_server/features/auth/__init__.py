"""Authentication (tag group Authentication): customer login and logout (session tokens)."""
