"""The reviews app's configuration."""

from django.apps import AppConfig


class ReviewsConfig(AppConfig):
    """Reviews of finished games: each person's decisions, the costliest first."""

    name = "cardtable.reviews"
    label = "reviews"
    verbose_name = "Reviews"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Queue a game's reviews when it finishes; pick up the queue when a table opens after a restart.

        Imported here, as Django's apps do: the models load before these modules.
        """
        from cardtable.reviews import jobs
        from cardtable.tables import events

        events.subscribe(events.MatchFinished, jobs.on_match_finished)
        events.subscribe(events.TableOpened, jobs.on_table_opened)
