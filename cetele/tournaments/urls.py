"""A tournament's pages: its scorer's link (t/), its view link (tv/)."""

from django.urls import path

from cetele.tournaments import views

app_name = "tournaments"

urlpatterns = [
    # First: the live poll (see sharing/urls.py).
    path("tv/<token:token>/poll/", views.view_tournament_poll, name="view_tournament_poll"),
    path("t/<token:token>/poll/", views.tournament_poll, name="tournament_poll"),
    path("turnuva/yeni/", views.tournament_create, name="tournament_create"),
    path("t/<token:token>/", views.tournament_detail, name="tournament_detail"),
    path("t/<token:token>/katilimcilar/", views.tournament_entrants, name="tournament_entrants"),
    path("t/<token:token>/cekil/", views.tournament_withdraw, name="tournament_withdraw"),
    path("t/<token:token>/kura/", views.tournament_draw, name="tournament_draw"),
    path("t/<token:token>/yazdir/", views.tournament_print, name="tournament_print"),
    path("t/<token:token>/oyun/<int:number>/", views.tournament_result, name="tournament_result"),
    path("tv/<token:token>/", views.view_tournament, name="view_tournament"),
]
