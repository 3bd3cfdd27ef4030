"""The dashboard's URLs: the staff dashboard, adding RECYCLE games, replays (pages and JSON)."""

from django.urls import path

from cardtable.dashboard import games_views, views

app_name = "dashboard"

urlpatterns = [
    path("staff/dashboard/", views.dashboard, name="dashboard"),
    path("staff/dashboard/end/<str:table_id>/", views.end_table, name="end_table"),
    path("staff/games/", games_views.recycle_games_page, name="recycle_games"),
    path("staff/games/<str:game_id>/edit/", games_views.edit_recycle_game, name="edit_recycle_game"),
    path("staff/games/<str:game_id>/check/", games_views.check_status, name="check_status"),
    path("replay/<str:table_id>/", views.table_games, name="table_games"),
    path("replay/<str:table_id>/<int:number>/", views.replay_page, name="replay"),
    path("api/tables/<str:table_id>/games/<int:number>/replay/", views.replay_json, name="replay_json"),
]
