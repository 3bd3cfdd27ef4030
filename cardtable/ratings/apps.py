"""The ratings app's configuration."""

from django.apps import AppConfig


class RatingsConfig(AppConfig):
    """Ratings per game for registered players, updated as games finish."""

    name = "cardtable.ratings"
    label = "ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Rate each game as it finishes: subscribe to ``MatchFinished`` (emitted after its result commits).

        Imported here, as Django's apps do: the models load before these modules.
        """
        from cardtable.ratings import rating
        from cardtable.tables import events

        events.subscribe(events.MatchFinished, rating.on_match_finished)
