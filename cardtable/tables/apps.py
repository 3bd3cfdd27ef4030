"""The table app's configuration."""

from django.apps import AppConfig


class TablesConfig(AppConfig):
    """Tables, seats, the move log and chat."""

    name = "cardtable.tables"
    label = "tables"
    default_auto_field = "django.db.models.BigAutoField"
