from django.urls import include, path

from cetele import views

urlpatterns = [
    path("", views.home, name="home"),
    path("yeni/", views.match_create, name="match_create"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("favicon.ico", views.favicon),
]
