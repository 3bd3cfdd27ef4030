"""Websocket URL routes."""

from django.urls import path

from cardtable.tables.live.consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/tables/<str:table_id>/", TableConsumer.as_asgi()),
]
