"""The table app's configuration."""

from django.apps import AppConfig


class TablesConfig(AppConfig):
    """Tables, seats, the move log and chat."""

    name = "cardtable.tables"
    label = "tables"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Subscribe the fan-out and the bot driver to the events the authority and the transport emit.

        No emitter knows its subscribers (``events``). The fan-out hears of a change
        before the driver, so the seats' frames go out before the bots think.
        Imported here, as Django's apps do: the models load before these modules.
        """
        from cardtable.tables import events
        from cardtable.tables.autoplay.driver import driver
        from cardtable.tables.live import broadcast

        events.subscribe(events.TableChanged, broadcast.on_table_changed)
        events.subscribe(events.MoveCommitting, broadcast.on_move_committing)
        events.subscribe(events.ChatPosted, broadcast.on_chat)
        events.subscribe(events.TableChanged, driver.on_table_changed)
        events.subscribe(events.TableOpened, driver.on_table_opened)
        events.subscribe(events.DeadlineSet, driver.on_deadline)
        events.subscribe(events.SeatAway, driver.on_seat_away)
        events.subscribe(events.ServerStopping, driver.on_stopping)
