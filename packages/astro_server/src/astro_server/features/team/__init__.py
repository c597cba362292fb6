"""Customer team: the account's logins, invitations and roles."""
