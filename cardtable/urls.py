"""The project's URLs: the admin, the JSON API and, when present, the pages."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("cardtable.dashboard.urls")),  # before the API's catch-all
    path("", include("cardtable.reviews.urls")),
    path("", include("cardtable.tables.urls")),
]

try:
    import cardtable.web.urls  # noqa: F401

    urlpatterns.append(path("", include("cardtable.web.urls")))
except ImportError:  # the pages are built by another app that may not exist yet
    pass
