"""The dashboard app's configuration."""

from django.apps import AppConfig


class DashboardConfig(AppConfig):
    """Staff dashboard, replays, game statistics and chat moderation records."""

    name = "cardtable.dashboard"
    label = "dashboard"
    verbose_name = "Dashboard"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Serve the RECYCLE games staff stored as games the server can find by id."""
        import games
        from cardtable.dashboard import recycle_games

        games.add_source(recycle_games.find, recycle_games.listing)
