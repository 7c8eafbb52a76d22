"""Links already shared keep working: every path the app has ever handed out (on a phone, in a
WhatsApp message, printed on a tournament's sheet) still opens the same page for the same role,
however the URL patterns are laid out in the code. And the URL each page links to is the path
it opens, so a page cannot hand out a path that leads somewhere else.
"""

import pytest
from django.urls import resolve, reverse

TOKEN = "Abcdefghijklmnopqrstu_-"
SLUG = "klasik"

# (path, the page's URL name, the arguments its view gets): the names are how the pages and the
# tests reach them; the paths are what a link holds.
KNOWN = [
    ("/m/{t}/poll/", "match_poll", {"role": "edit"}),
    ("/v/{t}/poll/", "view_poll", {"role": "view"}),
    ("/k/{t}/poll/", "join_poll", {"role": "join"}),
    ("/k/{t}/satirlar/", "join_rows", {"role": "join"}),
    ("/tv/{t}/poll/", "view_tournament_poll", {}),
    ("/t/{t}/poll/", "tournament_poll", {}),
    ("/m/{t}/satirlar/", "seat_rows", {"role": "edit"}),
    ("/healthz", "healthz", None),
    ("/", "home", None),
    ("/yeni/", "match_create", None),
    ("/yeni/kurallar/", "match_adjust", None),
    ("/kurallar/", "rules_list", None),
    ("/kurallar/yeni/", "preset_new", None),
    ("/kurallar/onizle/", "rules_preview", None),
    ("/kurallar/{s}/", "rules_detail", None),
    ("/ev/{t}/", "house_detail", {}),
    ("/ev/{t}/duzenle/", "house_edit", {}),
    ("/ev/{t}/duzenle/yenile/", "house_rotate", {}),
    ("/ev/{t}/duzenle/sil/", "house_delete", {}),
    ("/m/{t}/", "match_detail", {}),
    ("/m/{t}/el/", "hand_create", {}),
    ("/m/{t}/dagitan/", "match_dealer", {}),
    ("/m/{t}/el/7/", "hand_detail", {"number": 7}),
    ("/m/{t}/el/7/duzelt/", "hand_edit", {"number": 7}),
    ("/m/{t}/el/7/sil/", "hand_delete", {"number": 7}),
    ("/m/{t}/geri-al/", "match_undo", {}),
    ("/m/{t}/yinele/", "match_redo", {}),
    ("/m/{t}/gecmis/", "match_history", {}),
    ("/m/{t}/oyuncular/", "match_players", {}),
    ("/m/{t}/kurallar/", "match_rules", {"role": "edit"}),
    ("/m/{t}/sil/", "match_delete", {}),
    ("/m/{t}/paylas/", "match_share", {}),
    ("/m/{t}/paylas/yenile/", "match_rotate", {}),
    ("/m/{t}/paylas/katil-yenile/", "join_rotate", {}),
    ("/m/{t}/paylas/yer-bosalt/", "seat_free", {}),
    ("/m/{t}/itiraz-kapat/", "objection_close", {}),
    ("/m/{t}/gizli-puan/", "match_hidden_totals", {}),
    ("/masa/{t}/sil/", "table_delete", {}),
    ("/m/{t}/cay/", "match_drink", {}),
    ("/m/{t}/cay/kural/", "match_tea_rule", {}),
    ("/m/{t}/rovans/", "match_rematch", {}),
    ("/m/{t}/masa/", "match_table", {}),
    ("/v/{t}/", "view_match", {}),
    ("/v/{t}/el/7/", "view_hand", {"number": 7, "role": "view"}),
    ("/v/{t}/kurallar/", "view_rules", {"role": "view"}),
    ("/v/{t}/cetele.csv", "view_export_csv", {"role": "view"}),
    ("/v/{t}/cetele.json", "view_export_json", {"role": "view"}),
    ("/k/{t}/", "join_match", {}),
    ("/k/{t}/satir/", "join_row", {}),
    ("/k/{t}/gosterge/", "join_indicator", {}),
    ("/k/{t}/el/7/", "join_hand", {"number": 7, "role": "join"}),
    ("/k/{t}/el/7/itiraz/", "join_objection", {"number": 7}),
    ("/k/{t}/kurallar/", "join_rules", {"role": "join"}),
    ("/k/{t}/cetele.csv", "join_export_csv", {"role": "join"}),
    ("/k/{t}/cetele.json", "join_export_json", {"role": "join"}),
    ("/masa/yeni/", "table_create", None),
    ("/masa/{t}/", "table_detail", {}),
    ("/masa/{t}/mac/", "table_match", {}),
    ("/masa/{t}/oyuncular/", "table_players", {}),
    ("/masa/{t}/yenile/", "table_rotate", {}),
    ("/masa/{t}/cay/", "table_tea", {}),
    ("/masa/{t}/cay/ekle/", "table_drink", {}),
    ("/masa/{t}/cay/masada/", "table_waiting_drink", {}),
    ("/masa/izle/{t}/", "view_table", {}),
    ("/turnuva/yeni/", "tournament_create", None),
    ("/t/{t}/", "tournament_detail", {}),
    ("/t/{t}/katilimcilar/", "tournament_entrants", {}),
    ("/t/{t}/cekil/", "tournament_withdraw", {}),
    ("/t/{t}/kura/", "tournament_draw", {}),
    ("/t/{t}/yazdir/", "tournament_print", {}),
    ("/t/{t}/oyun/7/", "tournament_result", {"number": 7}),
    ("/tv/{t}/", "view_tournament", {}),
    ("/manifest.webmanifest", "manifest", None),
    ("/sw.js", "service_worker", None),
]


def expected_kwargs(path: str, extra: dict | None) -> dict:
    """What the view is called with: the link's token (if the path holds one), or the preset's
    slug, and what the pattern adds (the role, the hand's number)."""
    if extra is None:
        return {"slug": SLUG} if "{s}" in path else {}
    return {"token": TOKEN, **extra}


@pytest.mark.parametrize(("path", "name", "extra"), KNOWN, ids=[row[0] for row in KNOWN])
def test_a_shared_path_opens_the_same_page_for_the_same_role(path, name, extra):
    kwargs = expected_kwargs(path, extra)
    path = path.format(t=TOKEN, s=SLUG)
    found = resolve(path)

    assert found.url_name == name
    assert found.kwargs == kwargs
    # The name the pages use leads back to this very path.
    assert reverse(found.view_name, kwargs=found.kwargs) == path


@pytest.mark.parametrize(
    "path", ["/m/short/", "/v/not-a-token!/el/1/", "/masa/x/cay/", "/t/1/", "/ev/abc/sil/"]
)
def test_a_malformed_link_still_gets_the_bad_link_page(path):
    found = resolve(path)

    assert found.func.__name__ == "bad_link"
    assert found.kwargs == {"path": path.removeprefix("/")}
