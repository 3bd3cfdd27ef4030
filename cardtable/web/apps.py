"""The web app: lobby and table pages."""

from django.apps import AppConfig


class WebConfig(AppConfig):
    """Pages only: no models, the JSON API and websocket live in ``cardtable.tables``."""

    name = "cardtable.web"
    label = "web"
    verbose_name = "Pages"
