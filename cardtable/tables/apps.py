"""The table app's configuration."""

from django.apps import AppConfig


class TablesConfig(AppConfig):
    """Tables, seats, the move log and chat."""

    name = "cardtable.tables"
    label = "tables"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Subscribe the bot driver to table changes and turn-clock deadlines.

        The transport and the authority do not know the driver.
        """
        from cardtable.tables.authority import clocks
        from cardtable.tables.autoplay.driver import driver
        from cardtable.tables.live import broadcast

        broadcast.on_table_changed(driver.poke)
        clocks.on_deadline(driver.watch)
