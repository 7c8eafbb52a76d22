"""The tea tally: a match's drinks and who pays, a table's list and bill."""

from django.urls import path

from cetele.tea import views

app_name = "tea"

urlpatterns = [
    path("m/<token:token>/cay/", views.match_drink, name="match_drink"),
    path("m/<token:token>/cay/kural/", views.match_tea_rule, name="match_tea_rule"),
    path("masa/<token:token>/cay/", views.table_tea, name="table_tea"),
    path("masa/<token:token>/cay/ekle/", views.table_drink, name="table_drink"),
    path("masa/<token:token>/cay/masada/", views.table_waiting_drink, name="table_waiting_drink"),
]
