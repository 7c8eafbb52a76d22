"""The pages a match's view and join links open whatever the phone, and the scorer's sharing."""

from django.urls import path

from cetele.sharing import views
from cetele.sharing.links import EDIT, JOIN, VIEW

app_name = "sharing"

urlpatterns = [
    # First: the live poll is nearly all the traffic, and patterns are tried in order (the root
    # URLconf includes this module first). A page served to several links is one view; the
    # pattern names the link's role.
    path("m/<token:token>/poll/", views.sheet_poll, {"role": EDIT}, name="match_poll"),
    path("v/<token:token>/poll/", views.sheet_poll, {"role": VIEW}, name="view_poll"),
    path("k/<token:token>/poll/", views.sheet_poll, {"role": JOIN}, name="join_poll"),
    path("m/<token:token>/paylas/", views.match_share, name="match_share"),
    path("m/<token:token>/paylas/yenile/", views.match_rotate, name="match_rotate"),
    path("v/<token:token>/", views.view_match, name="view_match"),
    path("v/<token:token>/el/<int:number>/", views.view_hand, {"role": VIEW}, name="view_hand"),
    path("v/<token:token>/cetele.csv", views.export_csv, {"role": VIEW}, name="view_export_csv"),
    path("v/<token:token>/cetele.json", views.export_json, {"role": VIEW}, name="view_export_json"),
    path("k/<token:token>/el/<int:number>/", views.view_hand, {"role": JOIN}, name="join_hand"),
    path("k/<token:token>/cetele.csv", views.export_csv, {"role": JOIN}, name="join_export_csv"),
    path("k/<token:token>/cetele.json", views.export_json, {"role": JOIN}, name="join_export_json"),
]
