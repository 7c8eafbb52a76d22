from django.conf import settings
from django.urls import include, path, re_path, register_converter

from cetele.deal import views as deal
from cetele.house_rules import views as rules
from cetele.matches import views as matches
from cetele.seats import views as seats
from cetele.sharing import links as sharing
from cetele.sharing import views as shared
from cetele.sharing.links import EDIT, JOIN, VIEW
from cetele.shell import health, installable
from cetele.tables import views as tables
from cetele.tea import views as tea
from cetele.tournaments import views as cup
from cetele.your_data import views as your_data


class TokenConverter:
    """A link token: URL-safe base64 of at least 128 bits. Anything else never reaches a view."""

    regex = "[A-Za-z0-9_-]{22,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(TokenConverter, "token")

# Django's own re-runs the CSRF check, which can fail again on what made the request bad.
handler400 = "cetele.shell.refusals.bad_request"
# Django's own is a bare English page without our cache headers.
handler500 = "cetele.shell.refusals.server_error"

urlpatterns = [
    # First: the live poll is nearly all the traffic, and patterns are tried in order.
    # A page served to several links is one view; the pattern names the link's role.
    path("m/<token:token>/poll/", shared.sheet_poll, {"role": EDIT}, name="match_poll"),
    path("v/<token:token>/poll/", shared.sheet_poll, {"role": VIEW}, name="view_poll"),
    path("k/<token:token>/poll/", shared.sheet_poll, {"role": JOIN}, name="join_poll"),
    path("k/<token:token>/satirlar/", seats.rows_poll, {"role": JOIN}, name="join_rows"),
    path("tv/<token:token>/poll/", cup.view_tournament_poll, name="view_tournament_poll"),
    path("t/<token:token>/poll/", cup.tournament_poll, name="tournament_poll"),
    path("m/<token:token>/satirlar/", seats.rows_poll, {"role": EDIT}, name="seat_rows"),
    path("healthz", health.healthz, name="healthz"),  # load balancers ask it every few seconds
    path("", matches.home, name="home"),
    path("yeni/", matches.match_create, name="match_create"),
    path("yeni/kurallar/", rules.match_adjust, name="match_adjust"),
    path("kurallar/", rules.rules_list, name="rules_list"),
    path("kurallar/yeni/", rules.preset_new, name="preset_new"),
    path("kurallar/onizle/", rules.rules_preview, name="rules_preview"),
    path("kurallar/<slug:slug>/", rules.rules_detail, name="rules_detail"),
    path("ev/<token:token>/", rules.house_detail, name="house_detail"),
    path("ev/<token:token>/duzenle/", rules.house_edit, name="house_edit"),
    path("ev/<token:token>/duzenle/yenile/", rules.house_rotate, name="house_rotate"),
    path("ev/<token:token>/duzenle/sil/", your_data.house_delete, name="house_delete"),
    path("m/<token:token>/", matches.match_detail, name="match_detail"),
    path("m/<token:token>/el/", matches.hand_create, name="hand_create"),
    path("m/<token:token>/dagitan/", deal.match_dealer, name="match_dealer"),
    path("m/<token:token>/el/<int:number>/", matches.hand_detail, name="hand_detail"),
    path("m/<token:token>/el/<int:number>/duzelt/", matches.hand_edit, name="hand_edit"),
    path("m/<token:token>/el/<int:number>/sil/", matches.hand_delete, name="hand_delete"),
    path("m/<token:token>/geri-al/", matches.match_undo, name="match_undo"),
    path("m/<token:token>/yinele/", matches.match_redo, name="match_redo"),
    path("m/<token:token>/gecmis/", matches.match_history, name="match_history"),
    path("m/<token:token>/oyuncular/", matches.match_players, name="match_players"),
    path("m/<token:token>/kurallar/", matches.match_rules, {"role": EDIT}, name="match_rules"),
    path("m/<token:token>/sil/", your_data.match_delete, name="match_delete"),
    path("m/<token:token>/paylas/", shared.match_share, name="match_share"),
    path("m/<token:token>/paylas/yenile/", shared.match_rotate, name="match_rotate"),
    path("m/<token:token>/paylas/katil-yenile/", seats.join_rotate, name="join_rotate"),
    path("m/<token:token>/paylas/yer-bosalt/", seats.seat_free, name="seat_free"),
    path("m/<token:token>/itiraz-kapat/", seats.objection_close, name="objection_close"),
    path("m/<token:token>/gizli-puan/", matches.match_hidden_totals, name="match_hidden_totals"),
    path("masa/<token:token>/sil/", your_data.table_delete, name="table_delete"),
    path("m/<token:token>/cay/", tea.match_drink, name="match_drink"),
    path("m/<token:token>/cay/kural/", tea.match_tea_rule, name="match_tea_rule"),
    path("m/<token:token>/rovans/", tables.match_rematch, name="match_rematch"),
    path("m/<token:token>/masa/", tables.match_table, name="match_table"),
    path("v/<token:token>/", shared.view_match, name="view_match"),
    path("v/<token:token>/el/<int:number>/", shared.view_hand, {"role": VIEW}, name="view_hand"),
    path("v/<token:token>/kurallar/", matches.match_rules, {"role": VIEW}, name="view_rules"),
    path("v/<token:token>/cetele.csv", shared.export_csv, {"role": VIEW}, name="view_export_csv"),
    path(
        "v/<token:token>/cetele.json", shared.export_json, {"role": VIEW}, name="view_export_json"
    ),
    path("k/<token:token>/", seats.join_match, name="join_match"),
    path("k/<token:token>/satir/", seats.join_row, name="join_row"),
    path("k/<token:token>/gosterge/", deal.join_indicator, name="join_indicator"),
    path("k/<token:token>/el/<int:number>/", shared.view_hand, {"role": JOIN}, name="join_hand"),
    path("k/<token:token>/el/<int:number>/itiraz/", seats.join_objection, name="join_objection"),
    path("k/<token:token>/kurallar/", matches.match_rules, {"role": JOIN}, name="join_rules"),
    path("k/<token:token>/cetele.csv", shared.export_csv, {"role": JOIN}, name="join_export_csv"),
    path(
        "k/<token:token>/cetele.json", shared.export_json, {"role": JOIN}, name="join_export_json"
    ),
    path("masa/yeni/", tables.table_create, name="table_create"),
    path("masa/<token:token>/", tables.table_detail, name="table_detail"),
    path("masa/<token:token>/mac/", tables.table_match, name="table_match"),
    path("masa/<token:token>/oyuncular/", tables.table_players, name="table_players"),
    path("masa/<token:token>/yenile/", tables.table_rotate, name="table_rotate"),
    path("masa/<token:token>/cay/", tea.table_tea, name="table_tea"),
    path("masa/<token:token>/cay/ekle/", tea.table_drink, name="table_drink"),
    path("masa/<token:token>/cay/masada/", tea.table_waiting_drink, name="table_waiting_drink"),
    path("masa/izle/<token:token>/", tables.view_table, name="view_table"),
    path("turnuva/yeni/", cup.tournament_create, name="tournament_create"),
    path("t/<token:token>/", cup.tournament_detail, name="tournament_detail"),
    path("t/<token:token>/katilimcilar/", cup.tournament_entrants, name="tournament_entrants"),
    path("t/<token:token>/cekil/", cup.tournament_withdraw, name="tournament_withdraw"),
    path("t/<token:token>/kura/", cup.tournament_draw, name="tournament_draw"),
    path("t/<token:token>/yazdir/", cup.tournament_print, name="tournament_print"),
    path("t/<token:token>/oyun/<int:number>/", cup.tournament_result, name="tournament_result"),
    path("tv/<token:token>/", cup.view_tournament, name="view_tournament"),
    # Anything else under a match, house-preset, table or tournament link (a malformed token):
    # the same 404, counted as a miss.
    re_path(r"^(?P<path>(?:m|v|k|ev|masa|t|tv)/.+/)$", sharing.bad_link),
    path("i18n/", include("django.conf.urls.i18n")),
    path("favicon.ico", matches.favicon),
    path("manifest.webmanifest", installable.manifest, name="manifest"),
    path("sw.js", installable.service_worker, name="service_worker"),
]


def operator_urls(admin_path: str) -> list:
    """The operator's admin at `admin_path`, where DJANGO_ADMIN_PATH turned it on
    (settings.admin_settings); otherwise no URL leads to it, not even a login page."""
    if not admin_path:
        return []
    from django.contrib import admin  # installed only then

    return [path(admin_path, admin.site.urls)]


urlpatterns += operator_urls(settings.ADMIN_PATH)
