from django.conf import settings
from django.urls import include, path, re_path, register_converter

from cetele import (
    health,
    sharing,
    views,
    views_app,
    views_data,
    views_rules,
    views_sharing,
    views_tables,
)


class TokenConverter:
    """A link token: URL-safe base64 of at least 128 bits. Anything else never reaches a view."""

    regex = "[A-Za-z0-9_-]{22,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(TokenConverter, "token")

# Django's own re-runs the CSRF check, which can fail again on what made the request bad.
handler400 = "cetele.refusals.bad_request"
# Django's own is a bare English page without our cache headers.
handler500 = "cetele.refusals.server_error"

urlpatterns = [
    # First: the live poll is nearly all the traffic, and patterns are tried in order.
    path("m/<token:token>/poll/", views_sharing.match_poll, name="match_poll"),
    path("v/<token:token>/poll/", views_sharing.view_poll, name="view_poll"),
    path("healthz", health.healthz, name="healthz"),  # load balancers ask it every few seconds
    path("", views.home, name="home"),
    path("yeni/", views.match_create, name="match_create"),
    path("yeni/kurallar/", views_rules.match_adjust, name="match_adjust"),
    path("kurallar/", views_rules.rules_list, name="rules_list"),
    path("kurallar/yeni/", views_rules.preset_new, name="preset_new"),
    path("kurallar/onizle/", views_rules.rules_preview, name="rules_preview"),
    path("kurallar/<slug:slug>/", views_rules.rules_detail, name="rules_detail"),
    path("ev/<token:token>/", views_rules.house_detail, name="house_detail"),
    path("ev/<token:token>/duzenle/", views_rules.house_edit, name="house_edit"),
    path("ev/<token:token>/duzenle/yenile/", views_rules.house_rotate, name="house_rotate"),
    path("ev/<token:token>/duzenle/sil/", views_data.house_delete, name="house_delete"),
    path("m/<token:token>/", views.match_detail, name="match_detail"),
    path("m/<token:token>/el/", views.hand_create, name="hand_create"),
    path("m/<token:token>/el/<int:number>/", views.hand_detail, name="hand_detail"),
    path("m/<token:token>/el/<int:number>/duzelt/", views.hand_edit, name="hand_edit"),
    path("m/<token:token>/el/<int:number>/sil/", views.hand_delete, name="hand_delete"),
    path("m/<token:token>/geri-al/", views.match_undo, name="match_undo"),
    path("m/<token:token>/yinele/", views.match_redo, name="match_redo"),
    path("m/<token:token>/gecmis/", views.match_history, name="match_history"),
    path("m/<token:token>/oyuncular/", views.match_players, name="match_players"),
    path("m/<token:token>/kurallar/", views.match_rules, name="match_rules"),
    path("m/<token:token>/sil/", views_data.match_delete, name="match_delete"),
    path("m/<token:token>/paylas/", views_sharing.match_share, name="match_share"),
    path("m/<token:token>/paylas/yenile/", views_sharing.match_rotate, name="match_rotate"),
    path("masa/<token:token>/sil/", views_data.table_delete, name="table_delete"),
    path("m/<token:token>/rovans/", views_tables.match_rematch, name="match_rematch"),
    path("m/<token:token>/masa/", views_tables.match_table, name="match_table"),
    path("v/<token:token>/", views_sharing.view_match, name="view_match"),
    path("v/<token:token>/el/<int:number>/", views_sharing.view_hand, name="view_hand"),
    path("v/<token:token>/kurallar/", views_sharing.view_rules, name="view_rules"),
    path("v/<token:token>/cetele.csv", views_sharing.view_export_csv, name="view_export_csv"),
    path("v/<token:token>/cetele.json", views_sharing.view_export_json, name="view_export_json"),
    path("masa/yeni/", views_tables.table_create, name="table_create"),
    path("masa/<token:token>/", views_tables.table_detail, name="table_detail"),
    path("masa/<token:token>/mac/", views_tables.table_match, name="table_match"),
    path("masa/<token:token>/oyuncular/", views_tables.table_players, name="table_players"),
    path("masa/<token:token>/yenile/", views_tables.table_rotate, name="table_rotate"),
    path("masa/izle/<token:token>/", views_tables.view_table, name="view_table"),
    # Anything else under a match, house-preset or table link (a malformed token): the same
    # 404, counted as a miss.
    re_path(r"^(?P<path>(?:m|v|ev|masa)/.+/)$", sharing.bad_link),
    path("i18n/", include("django.conf.urls.i18n")),
    path("favicon.ico", views.favicon),
    path("manifest.webmanifest", views_app.manifest, name="manifest"),
    path("sw.js", views_app.service_worker, name="service_worker"),
]


def operator_urls(admin_path: str) -> list:
    """The operator's admin at `admin_path`, where DJANGO_ADMIN_PATH turned it on
    (settings.admin_settings); otherwise no URL leads to it, not even a login page."""
    if not admin_path:
        return []
    from django.contrib import admin  # installed only then

    return [path(admin_path, admin.site.urls)]


urlpatterns += operator_urls(settings.ADMIN_PATH)
