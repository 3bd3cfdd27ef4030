"""The leaderboards' URLs: the pages and their JSON."""

from django.urls import path

from cardtable.ratings import views

app_name = "ratings"

urlpatterns = [
    path("ratings/", views.index, name="index"),
    path("ratings/<str:game>/", views.board, name="game"),
    path("api/ratings/<str:game>/", views.board_json, name="json"),
]
