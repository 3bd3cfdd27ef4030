"""The dashboard's URLs: the staff dashboard, replays (pages and JSON)."""

from django.urls import path

from cardtable.dashboard import views

app_name = "dashboard"

urlpatterns = [
    path("staff/dashboard/", views.dashboard, name="dashboard"),
    path("staff/dashboard/end/<str:table_id>/", views.end_table, name="end_table"),
    path("replay/<str:table_id>/", views.table_games, name="table_games"),
    path("replay/<str:table_id>/<int:number>/", views.replay_page, name="replay"),
    path("api/tables/<str:table_id>/games/<int:number>/replay/", views.replay_json, name="replay_json"),
]
