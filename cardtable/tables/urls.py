"""The JSON API's URLs (PROTOCOL.md)."""

from django.urls import path, re_path

from cardtable.tables import api, movelog

urlpatterns = [
    path("api/session/", api.session),
    path("api/games/", api.games),
    path("api/tables/", api.tables),
    path("api/tables/<str:table_id>/", api.table),
    path("api/tables/<str:table_id>/log/", movelog.log),
    re_path(r"^api/(?P<rest>.*)$", api.not_found),
]
