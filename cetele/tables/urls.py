"""A table: the same players' matches over an evening, its players, its links."""

from django.urls import path

from cetele.tables import views

app_name = "tables"

urlpatterns = [
    path("m/<token:token>/rovans/", views.match_rematch, name="match_rematch"),
    path("m/<token:token>/masa/", views.match_table, name="match_table"),
    path("masa/yeni/", views.table_create, name="table_create"),
    path("masa/<token:token>/", views.table_detail, name="table_detail"),
    path("masa/<token:token>/poll/", views.table_poll, name="table_poll"),
    path("masa/<token:token>/mac/", views.table_match, name="table_match"),
    path("masa/<token:token>/oyuncular/", views.table_players, name="table_players"),
    path("masa/<token:token>/yenile/", views.table_rotate, name="table_rotate"),
    path("masa/izle/<token:token>/", views.view_table, name="view_table"),
    path("masa/izle/<token:token>/poll/", views.view_table_poll, name="view_table_poll"),
]
