"""Who deals the first hand, and the gösterge a joined phone sets."""

from django.urls import path

from cetele.deal import views

app_name = "deal"

urlpatterns = [
    path("m/<token:token>/dagitan/", views.match_dealer, name="match_dealer"),
    path("k/<token:token>/gosterge/", views.join_indicator, name="join_indicator"),
]
