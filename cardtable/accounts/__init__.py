"""Accounts: register, log in and out, change the password, delete the account; a player's page."""
