"""The joined phones: taking a seat, writing one's own row, objecting; and the scorer's hand
on them (the join link, a seat freed, an objection closed)."""

from django.urls import path

from cetele.seats import views
from cetele.sharing.links import EDIT, JOIN

app_name = "seats"

urlpatterns = [
    # First: the open hand's rows are polled as often as the sheet (see sharing/urls.py).
    path("k/<token:token>/satirlar/", views.rows_poll, {"role": JOIN}, name="join_rows"),
    path("m/<token:token>/satirlar/", views.rows_poll, {"role": EDIT}, name="seat_rows"),
    path("m/<token:token>/paylas/katil-yenile/", views.join_rotate, name="join_rotate"),
    path("m/<token:token>/paylas/yer-bosalt/", views.seat_free, name="seat_free"),
    path("m/<token:token>/itiraz-kapat/", views.objection_close, name="objection_close"),
    path("k/<token:token>/", views.join_match, name="join_match"),
    path("k/<token:token>/satir/", views.join_row, name="join_row"),
    path("k/<token:token>/el/<int:number>/itiraz/", views.join_objection, name="join_objection"),
]
