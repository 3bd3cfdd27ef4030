"""The accounts app."""

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Registration, login, the player's page (its views, forms and templates; no tables of its own)."""

    name = "cardtable.accounts"
    label = "accounts"
