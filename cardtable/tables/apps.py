"""The table app's configuration."""

from django.apps import AppConfig


class TablesConfig(AppConfig):
    """Tables, seats, the move log and chat."""

    name = "cardtable.tables"
    label = "tables"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Subscribe the bot driver to table changes and turn-clock deadlines.

        The transport and the services do not know the driver.
        """
        from cardtable.tables import broadcast, clocks
        from cardtable.tables.bots import driver

        broadcast.on_table_changed(driver.poke)
        clocks.on_deadline(driver.watch)
