"""The accounts' URLs (``/accounts/...``) and a player's page (``/players/<id or name>/``)."""

from django.urls import path

from cardtable.accounts import players, views

app_name = "accounts"

urlpatterns = [
    path("accounts/register/", views.register, name="register"),
    path("accounts/login/", views.LoginView.as_view(), name="login"),
    path("accounts/logout/", views.LogoutView.as_view(), name="logout"),
    path("accounts/password/", views.password_change, name="password"),
    path("accounts/password/done/", views.password_done, name="password_done"),
    path("accounts/delete/", views.delete_account, name="delete"),
    path("players/<str:key>/", players.player_page, name="player"),
]
