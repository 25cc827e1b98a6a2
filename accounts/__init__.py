"""Accounts: the user, the profile (display name, country, avatar), privacy, export and deletion."""
