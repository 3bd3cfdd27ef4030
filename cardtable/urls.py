"""The project's URLs: the admin, the dashboard, leaderboards, the API, accounts, players and the pages."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("cardtable.dashboard.urls")),  # before the API's catch-all
    path("", include("cardtable.ratings.urls")),  # so is this
    path("", include("cardtable.reviews.urls")),  # and this
    path("", include("cardtable.tables.urls")),
    path("", include("cardtable.accounts.urls")),
]

try:
    import cardtable.web.urls  # noqa: F401

    urlpatterns.append(path("", include("cardtable.web.urls")))
except ImportError:  # the pages are built by another app that may not exist yet
    pass
