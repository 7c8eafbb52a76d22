"""The match: starting one, the scorer's sheet and hands, undo and redo, its history, players
and rules (the rules page also for the view and join links)."""

from django.urls import path

from cetele.matches import views
from cetele.sharing.links import EDIT, JOIN, VIEW

app_name = "matches"

urlpatterns = [
    path("", views.home, name="home"),
    path("yeni/", views.match_create, name="match_create"),
    path("m/<token:token>/", views.match_detail, name="match_detail"),
    path("m/<token:token>/el/", views.hand_create, name="hand_create"),
    path("m/<token:token>/el/<int:number>/", views.hand_detail, name="hand_detail"),
    path("m/<token:token>/el/<int:number>/duzelt/", views.hand_edit, name="hand_edit"),
    path("m/<token:token>/el/<int:number>/sil/", views.hand_delete, name="hand_delete"),
    path("m/<token:token>/geri-al/", views.match_undo, name="match_undo"),
    path("m/<token:token>/yinele/", views.match_redo, name="match_redo"),
    path("m/<token:token>/gecmis/", views.match_history, name="match_history"),
    path("m/<token:token>/oyuncular/", views.match_players, name="match_players"),
    path("m/<token:token>/kurallar/", views.match_rules, {"role": EDIT}, name="match_rules"),
    path("m/<token:token>/gizli-puan/", views.match_hidden_totals, name="match_hidden_totals"),
    path("v/<token:token>/kurallar/", views.match_rules, {"role": VIEW}, name="view_rules"),
    path("k/<token:token>/kurallar/", views.match_rules, {"role": JOIN}, name="join_rules"),
]
