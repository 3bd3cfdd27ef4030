"""The dashboard app's configuration."""

from django.apps import AppConfig


class DashboardConfig(AppConfig):
    """Staff dashboard, replays, game statistics and chat moderation records."""

    name = "cardtable.dashboard"
    label = "dashboard"
    verbose_name = "Dashboard"
    default_auto_field = "django.db.models.BigAutoField"
