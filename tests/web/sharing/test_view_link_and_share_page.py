"""Sharing a match: tokens, the view link, rotation, the live poll, the share page, exports and
the standings message."""

import base64
import csv
import io
import json
import re

import pytest
from django.urls import reverse

import scoring
from cetele.models import Match, new_token
from cetele.sharing.pages import qr_svg, standings_message
from scoring.sheet import tally
from tests.factories import add_hand, form_data, make_match, sample_inputs

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def edit_url(name: str, match: Match, *args) -> str:
    return reverse(name, args=[match.edit_token, *args])


def view_url(name: str, match: Match, *args) -> str:
    return reverse(name, args=[match.view_token, *args])


# --- Tokens ---------------------------------------------------------------------------------


def test_a_link_token_carries_at_least_128_bits_from_secrets():
    token = new_token()

    raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    assert len(raw) * 8 >= 128
    assert re.fullmatch(r"[A-Za-z0-9_-]+", token)


def test_link_tokens_do_not_repeat():
    tokens = {new_token() for _ in range(2000)}

    assert len(tokens) == 2000


def test_a_match_has_two_different_links():
    match = make_match()

    assert match.edit_token != match.view_token
    assert len(match.view_token) >= 22


@pytest.mark.parametrize("kind", ["edit", "view"])
def test_rotating_a_token_changes_only_that_token(kind):
    match = make_match(hands=1)
    before = Match.objects.values().get(pk=match.pk)

    new = match.rotate_token(kind)

    after = Match.objects.values().get(pk=match.pk)
    field = f"{kind}_token"
    assert after[field] == new != before[field]
    # A new version too: a kept drawing that shows the link is drawn again (Match.rotate_token).
    assert after["version"] == before["version"] + 1
    assert {k: v for k, v in after.items() if k not in (field, "version")} == {
        k: v for k, v in before.items() if k not in (field, "version")
    }


# --- The view link --------------------------------------------------------------------------


def test_the_view_link_shows_the_sheet_read_only(client):
    match = make_match(hands=2)

    response = client.get(view_url("sharing:view_match", match))

    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="sheet"' in html
    assert "Ali" in html
    assert view_url("sharing:view_hand", match, match.hands.first().number) in html
    assert "hand-form" not in html
    assert "Geri al" not in html
    assert "/m/" not in html
    assert match.edit_token not in html
    assert 'data-match-role="view"' in html
    assert f'data-remember-match="/v/{match.view_token}/"' in html


def test_the_view_link_opens_a_hand_with_its_breakdown_but_no_correction_form(client):
    match = make_match(hands=1)
    hand = match.hands.get()

    response = client.get(view_url("sharing:view_hand", match, hand.number))

    html = response.content.decode()
    assert response.status_code == 200
    assert f'id="score-{0}"' in html
    assert "hand-form" not in html
    assert "Bu eli sil" not in html
    assert match.edit_token not in html


def test_the_view_link_shows_the_rules_with_a_way_back_to_the_view_page(client):
    match = make_match()

    html = client.get(view_url("matches:view_rules", match)).content.decode()

    assert view_url("sharing:view_match", match) in html
    assert match.edit_token not in html


def test_the_editor_page_links_to_the_share_page(client):
    match = make_match()

    html = client.get(edit_url("matches:match_detail", match)).content.decode()

    assert edit_url("sharing:match_share", match) in html
    assert 'data-match-role="edit"' in html


# --- Rotation -------------------------------------------------------------------------------


def test_rotating_the_view_link_retires_the_old_one_at_once(client):
    match = make_match()
    old = match.view_token

    response = client.post(
        edit_url("sharing:match_rotate", match), {"kind": "view", "confirm": "on"}
    )

    match.refresh_from_db()
    assert response.status_code == 302
    assert response.headers["Location"] == edit_url("sharing:match_share", match)
    assert match.view_token != old
    # The old link says it changed (tests/web/sharing/test_links_are_keys.py: uncounted, polling
    # stops).
    assert client.get(f"/v/{old}/").status_code == 410
    assert client.get(f"/v/{old}/poll/?v=0").status_code == 410
    assert client.get(view_url("sharing:view_match", match)).status_code == 200


def test_rotating_the_edit_link_sends_the_editor_to_the_new_one(client):
    match = make_match()
    old = match.edit_token

    response = client.post(
        edit_url("sharing:match_rotate", match), {"kind": "edit", "confirm": "on"}, follow=True
    )

    match.refresh_from_db()
    assert match.edit_token != old
    assert response.redirect_chain == [(edit_url("sharing:match_share", match), 302)]
    assert "Yeni düzenleme bağlantısı hazır" in response.content.decode()
    assert client.get(f"/m/{old}/").status_code == 410
    assert client.post(f"/m/{old}/el/", form_data(sample_inputs())).status_code == 410
    assert match.hands.count() == 0
    assert client.get(edit_url("matches:match_detail", match)).status_code == 200


def test_an_unknown_rotation_kind_changes_nothing(client):
    match = make_match()
    before = (match.edit_token, match.view_token)

    response = client.post(
        edit_url("sharing:match_rotate", match), {"kind": "both", "confirm": "on"}
    )

    match.refresh_from_db()
    assert response.status_code == 200
    assert "Hangi bağlantının yenileneceği anlaşılamadı." in response.content.decode()
    assert (match.edit_token, match.view_token) == before


def test_rotation_is_post_only(client):
    match = make_match()

    response = client.get(edit_url("sharing:match_rotate", match) + "?kind=view")

    assert response.status_code == 405
    assert Match.objects.get().view_token == match.view_token


# --- The live poll ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "token_field"),
    [("sharing:view_poll", "view_token"), ("sharing:match_poll", "edit_token")],
)
def test_an_unchanged_match_answers_the_poll_with_204_after_one_query(
    client, django_assert_num_queries, name, token_field
):
    match = make_match(hands=2)
    match.refresh_from_db()
    url = reverse(name, args=[getattr(match, token_field)]) + f"?v={match.version}"

    with django_assert_num_queries(1):
        response = client.get(url, headers=HTMX)

    assert response.status_code == 204
    assert response.content == b""
    assert re.search(r"no-store|no-cache", response.headers["Cache-Control"])  # 204 is cacheable


def test_a_changed_match_answers_the_poll_with_the_sheet_at_its_new_version(client):
    match = make_match(hands=1)
    match.refresh_from_db()
    shown = match.version
    add_hand(match, sample_inputs(finisher=2, remaining=33))
    match.refresh_from_db()

    response = client.get(view_url("sharing:view_poll", match) + f"?v={shown}", headers=HTMX)

    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section id="sheet"')
    assert f'hx-get="/v/{match.view_token}/poll/?v={match.version}"' in html
    assert len(re.findall(r'<a href="/v/[^"]+/el/\d+/', html)) == 2 * (1 + 4)
    assert match.edit_token not in html


def test_a_corrected_hand_also_changes_the_version_the_poll_sees(client):
    match = make_match(hands=1)
    match.refresh_from_db()
    shown = match.version
    hand = match.hands.get()
    inputs = sample_inputs(finisher=1, remaining=7)
    match.edit_hand(hand.number, inputs, hand.version, "fix-1")

    response = client.get(view_url("sharing:view_poll", match) + f"?v={shown}")

    assert response.status_code == 200


@pytest.mark.parametrize("version", ["", "abc", "-1", "99999999999999999999"])
def test_a_poll_with_a_strange_version_gets_the_sheet_not_an_error(client, version):
    match = make_match()

    response = client.get(view_url("sharing:view_poll", match) + f"?v={version}")

    assert response.status_code == 200


def test_the_pages_poll_with_the_version_they_show(client):
    match = make_match(hands=1)
    match.refresh_from_db()

    viewer = client.get(view_url("sharing:view_match", match)).content.decode()
    editor = client.get(edit_url("matches:match_detail", match)).content.decode()

    assert f'hx-get="/v/{match.view_token}/poll/?v={match.version}"' in viewer
    assert f'hx-get="/m/{match.edit_token}/poll/?v={match.version}"' in editor
    # No trigger filter: it would need eval, which the CSP forbids.
    assert 'hx-trigger="every 4s, visible-again"' in viewer
    assert all("[" not in trigger for trigger in re.findall(r'hx-trigger="([^"]*)"', editor))


def test_the_sheet_an_editor_asks_for_after_a_save_polls_from_the_new_version(client):
    match = make_match()
    shown = match.version

    response = client.post(
        edit_url("matches:hand_create", match), form_data(sample_inputs()), headers=HTMX
    )

    assert "cetele:hand-saved" in response["HX-Trigger"]  # the page asks for the sheet now
    polled = client.get(edit_url("sharing:match_poll", match) + f"?v={shown}", headers=HTMX)
    match.refresh_from_db()
    assert polled.status_code == 200
    assert f"poll/?v={match.version}" in polled.content.decode()


# --- The share page ---------------------------------------------------------------------------


def test_the_share_page_has_both_links_a_qr_code_and_the_standings_message(client):
    match = make_match(hands=2)

    response = client.get(edit_url("sharing:match_share", match))

    html = response.content.decode()
    view = f"http://testserver/v/{match.view_token}/"
    edit = f"http://testserver/m/{match.edit_token}/"
    assert response.status_code == 200
    assert f'data-copy="{view}"' in html
    assert f'data-share-url="{view}"' in html
    assert f'data-copy="{edit}"' in html
    assert "çeteleyi değiştirebilir" in html
    assert re.search(r"<svg[^>]*viewBox", html)
    assert "data-share-text=" in html
    assert "2 / 13 el oynandı" in html
    assert html.count(f'action="{edit_url("sharing:match_rotate", match)}"') == 1
    assert view_url("sharing:view_export_csv", match) in html


def test_the_qr_code_is_svg_without_style_attributes_and_encodes_the_view_link(client):
    match = make_match()

    html = client.get(edit_url("sharing:match_share", match)).content.decode()

    svg = re.search(r"<svg.*?</svg>", html, re.S)[0]
    assert "style" not in svg
    assert "<script" not in svg
    assert svg == qr_svg(f"http://testserver/v/{match.view_token}/")
    assert svg != qr_svg(f"http://testserver/m/{match.edit_token}/")


# --- The standings as a message ------------------------------------------------------------


def test_the_standings_message_lists_hands_played_totals_by_place_and_the_leader():
    sheet = tally([[0, 40, 101, 202], [60, 0, 101, 101]], 4, teams=False)

    text = standings_message(
        ["Ali", "Ayşe", "Can", "Deniz"], teams=False, planned_hands=5, sheet=sheet, link="L"
    )

    assert text.splitlines() == [
        "Çetele: 2 / 5 el oynandı",
        "1. Ayşe: 40",
        "2. Ali: 60",
        "3. Can: 202",
        "4. Deniz: 303",
        "Önde: Ayşe",
        "Canlı izleyin: L",
    ]


def test_the_standings_message_prints_a_negative_total_with_the_minus_sign():
    """As the sheet and the breakdowns print it: "−101", not "-101" (issue 29)."""
    sheet = tally([[-101, 40, 202]], 3, teams=False)

    text = standings_message(["A", "B", "C"], teams=False, planned_hands=3, sheet=sheet)

    assert text.splitlines()[1] == "1. A: −101"


def test_the_standings_message_names_the_winner_and_shares_a_tie():
    sheet = tally([[10, 10, 50]], 3, teams=False)

    text = standings_message(["A", "B", "C"], teams=False, planned_hands=1, sheet=sheet)

    assert text.splitlines() == [
        "Çetele: maç bitti (1 el)",
        "1. A: 10",
        "1. B: 10",
        "3. C: 50",
        "Kazanan: A, B",
    ]


def test_the_standings_message_counts_teams_as_teams():
    sheet = tally([[0, 100, 20, 50]], 4, teams=True)

    text = standings_message(["A", "B", "C", "D"], teams=True, planned_hands=3, sheet=sheet)

    assert text.splitlines()[1:] == ["1. A & C: 20", "2. B & D: 150", "Önde: A & C"]


def test_the_standings_message_before_the_first_hand():
    sheet = tally([], 2, teams=False)

    text = standings_message(["A", "B"], teams=False, planned_hands=3, sheet=sheet)

    assert text.splitlines() == ["Çetele: 0 / 3 el oynandı", "Henüz el oynanmadı."]


# --- Exports --------------------------------------------------------------------------------


def played_match() -> Match:
    match = make_match(hands=0)
    hands = [
        sample_inputs(finisher=0, remaining=12),
        sample_inputs(finisher=None, remaining=0),
        sample_inputs(finisher=3, remaining=47),
    ]
    for inputs in hands:
        add_hand(match, inputs)
    # A corrected hand exports as corrected.
    first = match.hands.first()
    fixed = sample_inputs(finisher=1, remaining=5)
    match.edit_hand(first.number, fixed, first.version, "fix")
    return match


def engine_scores(match: Match) -> list[list[int]]:
    return [
        scoring.score_json(match.scoring_request(h.inputs))["scores"] for h in match.hands.all()
    ]


def test_the_csv_export_has_a_row_per_hand_with_running_totals_and_a_totals_row(client):
    match = played_match()

    response = client.get(view_url("sharing:view_export_csv", match))

    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert response.headers["Content-Disposition"].startswith("attachment; filename=")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    names = ["Ali", "Ayşe", "Can", "Deniz"]
    assert rows[0][:6] == ["El", "Bitiş", *names]
    assert rows[0][6:] == [f"{name} (toplam)" for name in names]
    scores = engine_scores(match)
    running = [0, 0, 0, 0]
    for number, (row, expected) in enumerate(zip(rows[1:-1], scores, strict=True), start=1):
        running = [a + b for a, b in zip(running, expected, strict=True)]
        assert row[0] == str(number)
        assert row[2:6] == [str(s) for s in expected]
        assert row[6:10] == [str(s) for s in running]
    assert rows[2][1] == "Kimse bitmedi"
    assert rows[-1] == ["Toplam", "", *[str(s) for s in running]]


def test_the_csv_export_of_a_team_match_adds_team_columns(client):
    match = make_match(teams=True, hands=2)

    rows = list(
        csv.reader(
            io.StringIO(
                client.get(view_url("sharing:view_export_csv", match)).content.decode("utf-8-sig")
            )
        )
    )

    assert rows[0][2:8] == ["Ali", "Ayşe", "Can", "Deniz", "Ali & Can", "Ayşe & Deniz"]
    first = [int(v) for v in rows[1][2:8]]
    assert first[4] == first[0] + first[2]
    assert len(rows[-1]) == 8


def test_the_csv_export_disarms_names_a_spreadsheet_would_run_as_formulas(client):
    match = make_match(players=2, hands=1)
    match.rename_players(["=HYPERLINK(1)", "@SUM(A1)"])

    text = client.get(view_url("sharing:view_export_csv", match)).content.decode("utf-8-sig")

    header = next(csv.reader(io.StringIO(text)))
    assert header[2:4] == ["'=HYPERLINK(1)", "'@SUM(A1)"]
    data = list(csv.reader(io.StringIO(text)))[1]
    assert all(not cell.startswith("'") for cell in data)  # negative numbers stay numbers


def test_the_json_export_holds_everything_needed_to_recompute_the_match(client):
    match = played_match()

    response = client.get(view_url("sharing:view_export_json", match))

    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/json; charset=utf-8"
    assert response.headers["Content-Disposition"].startswith("attachment; filename=")
    data = json.loads(response.content)
    assert data["format"] == "cetele.match/1"
    assert [p["name"] for p in data["players"]] == ["Ali", "Ayşe", "Can", "Deniz"]
    assert data["teams"] is False
    assert data["planned_hands"] == 13
    assert data["rules"] == match.rules
    assert [h["number"] for h in data["hands"]] == [1, 2, 3]
    for exported in data["hands"]:
        request = {"rules": data["rules"], "teams": data["teams"], "hand": exported["inputs"]}
        assert scoring.score_json(request) == exported["result"]
    scores = engine_scores(match)
    assert [h["result"]["scores"] for h in data["hands"]] == scores
    assert data["totals"] == [sum(column) for column in zip(*scores, strict=True)]


def test_exports_are_reachable_from_the_view_link_only_by_get(client):
    match = make_match(hands=1)

    assert client.post(view_url("sharing:view_export_csv", match)).status_code == 405
    assert client.post(view_url("sharing:view_export_json", match)).status_code == 405


# --- "Maçlarım" -----------------------------------------------------------------------------


def test_the_home_page_has_an_empty_hidden_my_matches_list_for_app_js_to_fill(client):
    make_match()

    html = client.get("/").content.decode()

    box = re.search(r"<section[^>]*data-my-matches[^>]*>.*?</section>", html, re.S)[0]
    assert 'class="card hidden"' in box
    assert re.search(r"<ul[^>]*></ul>", box)
    assert "/m/" not in html and "/v/" not in html  # the server lists nobody's matches


def test_a_match_found_by_its_link_reads_its_base_rules_only_when_asked():
    from cetele.sharing.links import EDIT, VIEW, match_by_token

    match = make_match()
    stored = scoring.resolve_rules("om-klasik")
    Match.objects.filter(pk=match.pk).update(base_rules=stored)
    for role, token in ((EDIT, match.edit_token), (VIEW, match.view_token)):
        found = match_by_token(role, token)
        assert found.get_deferred_fields() == {"base_rules"}
        assert found.rules == match.rules
        assert found.base_rules == stored
