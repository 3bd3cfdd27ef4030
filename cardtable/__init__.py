"""The card table's Django project: settings, URLs, ASGI routing and the table app."""
