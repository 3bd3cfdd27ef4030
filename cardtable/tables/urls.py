"""The JSON API's URLs (PROTOCOL.md)."""

from django.urls import path, re_path

from cardtable.tables import api

urlpatterns = [
    path("api/session/", api.session),
    path("api/games/", api.games),
    path("api/tables/", api.tables),
    path("api/tables/<str:table_id>/", api.table),
    re_path(r"^api/(?P<rest>.*)$", api.not_found),
]
