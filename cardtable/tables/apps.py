"""The table app's configuration."""

from django.apps import AppConfig


class TablesConfig(AppConfig):
    """Tables, seats, the move log and chat."""

    name = "cardtable.tables"
    label = "tables"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Subscribe the bot driver to table changes (the transport does not know it)."""
        from cardtable.tables import broadcast
        from cardtable.tables.bots import driver

        broadcast.on_table_changed(driver.poke)
