from django.urls import include, path, register_converter

from cetele import views


class TokenConverter:
    """A link token: URL-safe base64 of at least 128 bits. Anything else never reaches a view."""

    regex = "[A-Za-z0-9_-]{22,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(TokenConverter, "token")

urlpatterns = [
    path("", views.home, name="home"),
    path("yeni/", views.match_create, name="match_create"),
    path("m/<token:token>/", views.match_detail, name="match_detail"),
    path("m/<token:token>/el/", views.hand_create, name="hand_create"),
    path("m/<token:token>/el/<int:number>/", views.hand_detail, name="hand_detail"),
    path("m/<token:token>/el/<int:number>/duzelt/", views.hand_edit, name="hand_edit"),
    path("m/<token:token>/el/<int:number>/sil/", views.hand_delete, name="hand_delete"),
    path("m/<token:token>/geri-al/", views.match_undo, name="match_undo"),
    path("m/<token:token>/gecmis/", views.match_history, name="match_history"),
    path("m/<token:token>/oyuncular/", views.match_players, name="match_players"),
    path("m/<token:token>/kurallar/", views.match_rules, name="match_rules"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("favicon.ico", views.favicon),
]
