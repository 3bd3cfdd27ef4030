"""The reviews' URL: a finished game's reviews as JSON (docs/protocol.md)."""

from django.urls import path

from cardtable.reviews import views

app_name = "reviews"

urlpatterns = [
    path("api/tables/<str:table_id>/games/<int:number>/review/", views.review, name="review"),
]
