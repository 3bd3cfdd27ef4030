"""The lobby at ``/`` and a table's page at ``/t/<id>/`` (the invite link)."""

from django.urls import path

from cardtable.web import views

app_name = "web"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("t/<str:table_id>/", views.table, name="table"),
    path("name/", views.choose_name, name="choose_name"),
    path("favicon.ico", views.favicon, name="favicon"),
]
