"""WSGI entry point (HTTP only; the table's websockets need `asgi.py`)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardtable.settings")

application = get_wsgi_application()
