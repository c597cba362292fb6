"""Support shared by the end-to-end tests (stack, receiver, accounts)."""
