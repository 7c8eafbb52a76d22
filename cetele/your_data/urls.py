"""Deleting what one wrote: a house preset, a match, a table."""

from django.urls import path

from cetele.your_data import views

app_name = "your_data"

urlpatterns = [
    path("ev/<token:token>/duzenle/sil/", views.house_delete, name="house_delete"),
    path("m/<token:token>/sil/", views.match_delete, name="match_delete"),
    path("masa/<token:token>/sil/", views.table_delete, name="table_delete"),
]
