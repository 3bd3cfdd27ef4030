"""Helpers more than one test folder uses: HTTP with CSRF, free ports and Daphne, arranged card games."""
