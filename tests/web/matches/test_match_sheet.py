"""The match sheet through Django's test client: start, enter, correct, delete, undo."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

import scoring
from cetele.models import Change, Hand, Match
from scoring.labels import signed
from tests.factories import (
    NAMES,
    add_hand,
    form_data,
    make_match,
    new_match_data,
    sample_inputs,
    undo_form,
)

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
PREVIEW = {"HX-Request": "true", "HX-Target": "hand-preview"}


def url(name: str, match: Match, *args) -> str:
    return reverse(name, args=[match.edit_token, *args])


# --- Starting a match -----------------------------------------------------------------------


def test_start_a_match_redirects_to_its_unguessable_link(client):
    response = client.post(reverse("matches:match_create"), new_match_data())

    match = Match.objects.get()
    assert response.status_code == 302
    assert response.headers["Location"] == f"/m/{match.edit_token}/"
    assert len(match.edit_token) >= 43  # 256 bits of URL-safe base64
    assert [p.name for p in match.players.all()] == ["Ali", "Ayşe", "Can", "Deniz"]
    assert match.planned_hands == 5
    assert match.rules == scoring.resolve_rules("cetele-standart")


def test_a_match_keeps_a_frozen_copy_of_its_rules_with_the_cezasiz_choice(client):
    client.post(reverse("matches:match_create"), new_match_data(preset="om-klasik", cezali="0"))

    match = Match.objects.get()
    assert match.rules["cezali"] is False
    assert match.base_rules == scoring.resolve_rules("om-klasik")
    assert match.preset_slug == "om-klasik"


def test_two_and_three_player_singles_are_allowed(client):
    client.post(reverse("matches:match_create"), new_match_data(name_3="", name_4=""))
    client.post(reverse("matches:match_create"), new_match_data(name_4=""))

    assert sorted(m.players.count() for m in Match.objects.all()) == [2, 3]


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"teams": "on", "name_4": ""}, "teams", "Eşli oyun tam 4 oyuncuyla oynanır."),
        ({"name_3": ""}, "name_3", "Oyuncuları sırayla yazın"),
        ({"preset": "kafadinle", "planned_hands": "3"}, "planned_hands", "1, 5, 7, 9, 11"),
        ({"preset": "no-such-preset"}, "preset", "Geçerli bir seçenek seçin"),
        ({"name_1": ""}, "name_1", "Bu alan zorunludur"),
    ],
)
def test_an_invalid_match_is_refused_with_a_message_and_nothing_saved(
    client, overrides, field, message
):
    response = client.post(reverse("matches:match_create"), new_match_data(**overrides))

    assert response.status_code == 200
    assert message in " ".join(response.context["form"].errors[field])
    assert not Match.objects.exists()


# --- Entering a hand ------------------------------------------------------------------------

OKEY_FINISH_WITH_PENALTY = {
    "finisher": 0,
    "okey_finish": True,
    "kafa": False,
    "players": [
        {"opened": "series"},
        {"opened": "pairs", "remaining": 107},
        {
            "opened": "series",
            "remaining": 10,
            "penalties": [{"kind": "islek_discard", "taken": True, "tile": 8}],
        },
        {"opened": "no"},
    ],
}


def engine_scores(match: Match, inputs: dict) -> list[int]:
    return scoring.score_json({"rules": match.rules, "teams": match.teams, "hand": inputs})[
        "scores"
    ]


def test_a_plain_post_saves_the_hand_and_redirects_to_the_sheet(client):
    match = make_match()

    response = client.post(url("matches:hand_create", match), form_data(OKEY_FINISH_WITH_PENALTY))

    assert response.status_code == 302
    assert response.headers["Location"] == url("matches:match_detail", match)
    hand = Hand.objects.get()
    assert hand.scores == engine_scores(match, OKEY_FINISH_WITH_PENALTY) == [-202, 529, 100, 404]
    assert hand.inputs["players"][2]["penalties"] == [
        {"kind": "islek_discard", "taken": True, "tile": 8}
    ]
    page = client.get(url("matches:match_detail", match)).content.decode()
    assert f'href="{url("matches:hand_detail", match, hand.number)}#score-1">529</a>' in page


def test_an_htmx_save_answers_with_a_fresh_form_and_the_note_out_of_band(client):
    match = make_match()

    response = client.post(
        url("matches:hand_create", match), form_data(OKEY_FINISH_WITH_PENALTY), headers=HTMX
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert 'id="saved-note" class="saved-note" hx-swap-oob="true"' in html
    assert 'id="sheet"' not in html  # asked for by the page (static/cetele/app.js)
    assert 'id="hand-form"' in html
    assert "2. el" in html
    assert Hand.objects.count() == 1


def test_the_preview_shows_every_score_with_its_breakdown_and_saves_nothing(client):
    match = make_match()

    response = client.post(
        url("matches:hand_create", match),
        form_data(OKEY_FINISH_WITH_PENALTY, action="preview"),
        headers=PREVIEW,
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert '<div id="hand-preview"' in html
    assert "<form" not in html  # the inputs are never re-rendered while the user types
    assert "Okeyle bitiş" in html
    for name, score in zip(("Ali", "Ayşe", "Can", "Deniz"), (-202, 529, 100, 404), strict=True):
        assert f"{name} <strong>{signed(score)}</strong>" in html
    assert not Hand.objects.exists()


def test_an_invalid_hand_shows_the_engines_message_next_to_the_field_and_is_not_stored(client):
    match = make_match()
    inputs = sample_inputs()
    inputs["players"][0]["remaining"] = 12  # the finisher holds no tiles

    response = client.post(url("matches:hand_create", match), form_data(inputs))

    assert response.status_code == 200
    seat_form = response.context["entry"].seat_forms[0]
    assert seat_form.errors["remaining"]
    assert not Hand.objects.exists()
    assert match.changes.count() == 0


def test_the_finisher_must_be_chosen_explicitly(client):
    match = make_match()
    data = form_data(sample_inputs())
    del data["finisher"]

    response = client.post(url("matches:hand_create", match), data)

    assert "Kimin bitirdiğini seçin" in response.content.decode()
    assert not Hand.objects.exists()


def test_tapping_the_finisher_is_enough_for_a_series_finish(client):
    match = make_match()
    data = form_data(sample_inputs(finisher=2))
    data["p2-opened"] = "no"

    client.post(url("matches:hand_create", match), data)

    assert Hand.objects.get().inputs["players"][2]["opened"] == "series"


def test_a_double_tap_or_retried_request_saves_one_hand(client):
    match = make_match()
    data = form_data(sample_inputs(), token="same-token")

    first = client.post(url("matches:hand_create", match), data)
    second = client.post(url("matches:hand_create", match), data)

    assert first.status_code == second.status_code == 302
    assert Hand.objects.count() == 1
    assert match.changes.count() == 1


def test_the_last_hand_ends_the_match_and_shows_the_winner(client):
    match = make_match(planned_hands=1)

    client.post(url("matches:hand_create", match), form_data(sample_inputs(finisher=1)))
    page = client.get(url("matches:match_detail", match)).content.decode()
    extra = client.post(url("matches:hand_create", match), form_data(sample_inputs()))

    assert "Maç bitti. Kazanan:" in page
    assert "Ayşe" in page.split("Maç bitti. Kazanan:")[1].split("</p>")[0]
    assert 'name="action" value="save"' not in page
    assert "Maçın bütün elleri oynandı." in extra.content.decode()
    assert Hand.objects.count() == 1


def test_a_tie_of_every_player_is_a_draw(client):
    match = make_match(players=2, planned_hands=1)
    inputs = {"finisher": None, "players": [{"opened": "no"}, {"opened": "no"}]}

    client.post(url("matches:hand_create", match), form_data(inputs))
    page = client.get(url("matches:match_detail", match)).content.decode()

    assert "Maç bitti: berabere." in page  # a draw: nobody won
    assert "Kazanan" not in page


def test_tied_winners_are_two_people_not_one_name(client):
    """Ayşe and Can tie, Burak between them at the table lost: "Ayşe, Can", never "Ayşe Can"."""
    match = make_match(players=3, planned_hands=1)
    opened = {"opened": "series", "remaining": 5}
    inputs = {"finisher": None, "players": [opened, {"opened": "no"}, opened]}

    client.post(url("matches:hand_create", match), form_data(inputs))
    page = client.get(url("matches:match_detail", match)).content.decode()

    winner = " ".join(page.split("Maç bitti. Kazanan:")[1].split("</p>")[0].split())
    assert winner == f"{NAMES[0]}, {NAMES[2]} (berabere)"


def test_penalty_rows_are_added_and_removed_without_javascript(client):
    match = make_match()
    data = form_data(OKEY_FINISH_WITH_PENALTY, action="add-penalty-1")

    added = client.post(url("matches:hand_create", match), data)
    seat = added.context["entry"].seat_forms[1]
    data = form_data(OKEY_FINISH_WITH_PENALTY)
    data["p2-pen-0-DELETE"] = "on"  # "Cezayı kaldır" ticked, then saved
    removed = client.post(url("matches:hand_create", match), data)

    assert len(seat.penalties.forms) == 1
    assert not added.context["entry"].seat_forms[0].penalties.forms
    assert removed.status_code == 302
    assert Hand.objects.get().inputs["players"][2]["penalties"] == []
    assert Hand.objects.get().scores == [-202, 529, 20, 404]


def test_the_add_penalty_button_stops_at_the_tenth_row_without_a_message(client):
    """Ten penalty rows is the formset's limit: "+ Ceza ekle" then adds none, and the ten typed
    are shown as they were, with no error about the number of rows."""
    match = make_match()
    inputs = sample_inputs()
    inputs["players"][1]["penalties"] = [{"kind": "custom", "points": 5}] * 10

    answer = client.post(
        url("matches:hand_create", match), form_data(inputs, action="add-penalty-1")
    )

    page = answer.content.decode()
    assert answer.status_code == 200
    assert 'name="p1-pen-9-kind"' in page and 'name="p1-pen-10-kind"' not in page
    assert 'name="p1-pen-TOTAL_FORMS" value="10"' in page
    assert answer.context["entry"].all_errors() == []
    assert not Hand.objects.exists()


def test_only_the_rulesets_penalty_kinds_are_offered(client):
    match = make_match(preset="cetele-standart")
    response = client.post(
        url("matches:hand_create", match), form_data(sample_inputs(), action="add-penalty-0")
    )

    kinds = [
        value
        for value, _ in response.context["entry"]
        .seat_forms[0]
        .penalties.forms[0]
        .fields["kind"]
        .choices
    ]
    assert kinds == [
        "okey_discard",
        "islek_discard",
        "okey_taken",
        "side_take_unused",
        "custom",
    ]


def test_a_cezasiz_table_offers_only_custom_penalties(client):
    client.post(reverse("matches:match_create"), new_match_data(cezali="0"))
    match = Match.objects.get()

    response = client.post(
        url("matches:hand_create", match), form_data(sample_inputs(), action="add-penalty-0")
    )

    choices = response.context["entry"].seat_forms[0].penalties.forms[0].fields["kind"].choices
    assert [value for value, _ in choices] == ["custom"]


def test_teams_show_team_totals(client):
    match = make_match(teams=True)
    inputs = {
        "finisher": 0,
        "kafa": True,
        "players": [
            {"opened": "series"},
            {"opened": "series", "remaining": 20},
            {"opened": "no"},
            {"opened": "no"},
        ],
    }

    client.post(url("matches:hand_create", match), form_data(inputs))
    response = client.get(url("matches:match_detail", match))

    assert response.context["sheet"].team_totals == (-202, 222)
    assert "Ali & Can" in response.content.decode()


# --- Correcting, deleting, undoing -------------------------------------------------------------


def test_a_hand_page_shows_how_every_score_was_made(client):
    match = make_match()
    hand = add_hand(match, OKEY_FINISH_WITH_PENALTY)

    html = client.get(url("matches:hand_detail", match, hand.number)).content.decode()

    assert "1. el" in html
    assert "107 × 2 (çift açtı) × 2 (okeyle bitiş) + 101 (100&#x27;ü geçti) = 529" in html
    assert 'value="107"' in html  # the correction form is filled with the stored inputs
    # Said once: not again as a list of the sentence's own parts under it.
    breakdown = html.split('id="breakdown"')[1].split('id="entry-title"')[0]
    assert breakdown.count("101 (100&#x27;ü geçti)") == 1


def test_correcting_a_hand_recomputes_and_keeps_the_old_scores_in_the_history(client):
    match = make_match()
    hand = add_hand(match, sample_inputs(remaining=20))
    corrected = sample_inputs(remaining=35)

    response = client.post(
        url("matches:hand_edit", match, hand.number), form_data(corrected, version=hand.version)
    )

    hand.refresh_from_db()
    assert response.status_code == 302
    assert hand.scores == engine_scores(match, corrected)
    assert hand.version == 2
    change = match.changes.get(action=Change.Action.EDIT)
    assert change.before["result"]["scores"][1] == 20
    assert change.after["result"]["scores"][1] == 35
    history = client.get(url("matches:match_history", match)).content.decode()
    assert "1. el düzeltildi" in history and "<td>20</td>" in history and "<td>35</td>" in history


def correct_after_another_phone(client, **headers):
    """Another phone corrects hand 1 (its sum 20 → 30); this phone, still on the version it
    opened, then sends its own correction (40). Returns (match, hand, this phone's answer)."""
    match = make_match()
    hand = add_hand(match, sample_inputs(remaining=20))
    stale_version = hand.version
    client.post(
        url("matches:hand_edit", match, hand.number),
        form_data(sample_inputs(remaining=30), version=stale_version),
    )
    response = client.post(
        url("matches:hand_edit", match, hand.number),
        form_data(sample_inputs(remaining=40), version=stale_version),
        **headers,
    )
    return match, hand, response


def test_a_later_save_never_silently_overwrites_an_earlier_one(client):
    match, hand, response = correct_after_another_phone(client)

    hand.refresh_from_db()
    html = response.content.decode()
    assert response.status_code == 200
    assert "başka bir telefondan değiştirildi" in html
    assert 'value="30"' in html  # the newer data is shown
    assert hand.inputs["players"][1]["remaining"] == 30


def test_a_phone_told_of_another_correction_sees_that_correction_in_the_scores_too(client):
    """On the hand's page the form and the scores above it must agree: the button's answer
    (htmx) brings the scores of the version it puts in the form, out of band."""
    match, hand, response = correct_after_another_phone(
        client, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="hand-form"
    )

    html = response.content.decode()
    assert "başka bir telefondan değiştirildi" in html
    assert '<div id="breakdown" hx-swap-oob="true">' in html
    breakdown = html.split('<div id="breakdown"', 1)[1].split("</div>", 1)[0]
    hand.refresh_from_db()
    name = match.players.get(seat=1).name
    assert f"{name}: {hand.scores[1]}</strong>" in breakdown and hand.scores[1] == 30


def test_deleting_asks_first_then_deletes_and_undo_brings_it_back(client):
    match = make_match()
    hand = add_hand(match, sample_inputs(remaining=20))

    confirm = client.get(url("matches:hand_delete", match, hand.number))
    assert confirm.status_code == 200 and Hand.objects.count() == 1

    client.post(url("matches:hand_delete", match, hand.number))
    assert Hand.objects.count() == 0

    client.post(url("matches:match_undo", match), undo_form(match))
    restored = Hand.objects.get()
    assert restored.number == hand.number
    assert restored.scores == hand.scores


def test_undo_reverses_the_latest_change_each_time(client):
    match = make_match()
    client.post(url("matches:hand_create", match), form_data(sample_inputs(remaining=20)))
    hand = Hand.objects.get()
    client.post(
        url("matches:hand_edit", match, hand.number),
        form_data(sample_inputs(remaining=30), version=hand.version),
    )

    client.post(url("matches:match_undo", match), undo_form(match))
    assert Hand.objects.get().inputs["players"][1]["remaining"] == 20
    client.post(url("matches:match_undo", match), undo_form(match))
    assert not Hand.objects.exists()
    response = client.post(url("matches:match_undo", match), undo_form(match), follow=True)
    assert "Geri alınacak bir değişiklik yok." in response.content.decode()
    actions = list(match.changes.order_by("pk").values_list("action", flat=True))
    assert actions == ["create", "edit", "undo", "undo"]


def test_renaming_players_is_kept_in_the_history_and_can_be_undone(client):
    match = make_match()

    client.post(
        url("matches:match_players", match),
        {"seat_0": "Ali Rıza", "seat_1": "Ayşe", "seat_2": "Can", "seat_3": "Deniz"},
    )
    assert match.players.get(seat=0).name == "Ali Rıza"
    client.post(url("matches:match_undo", match), undo_form(match))

    assert match.players.get(seat=0).name == "Ali"
    assert list(match.changes.values_list("action", flat=True)) == ["undo", "rename"]


def test_every_change_bumps_the_match_version(client):
    match = make_match()

    client.post(url("matches:hand_create", match), form_data(sample_inputs()))
    client.post(url("matches:hand_delete", match, 1))
    client.post(url("matches:match_undo", match), undo_form(match))

    match.refresh_from_db()
    assert match.version == 3


def test_the_match_rules_page_shows_the_frozen_rules(client):
    match = make_match(preset="om-zorlu")
    # The match froze a copy whose okey-finish winner differs from today's preset, as if the
    # preset had changed after the match started: the page must show the match's own copy.
    frozen = scoring.deep_merge(match.rules, {"finishes": {"okey": {"winner": -303}}})
    Match.objects.filter(pk=match.pk).update(rules=frozen)

    html = client.get(url("matches:match_rules", match)).content.decode()

    # One ruleset, one name: the preset list's name, not the ruleset's long one.
    assert "<h1>Okey Masters Zorlu</h1>" in html
    assert "Okey Masters 101 — Zorlu" not in html
    okey_row = html.split('data-kind="okey"')[1].split("</tr>")[0]
    assert "303" in okey_row and "202" not in okey_row
    assert scoring.PRESETS["om-zorlu"].rules["finishes"]["okey"]["winner"] == -202


# --- Bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/m/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/",
        "/m/short/",
        "/m/%3Cscript%3E/",
        "/m/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/el/1/",
    ],
)
def test_unknown_or_malformed_matches_are_404(client, path):
    assert client.get(path).status_code == 404


def test_a_hand_that_does_not_exist_is_404(client):
    match = make_match(hands=1)

    assert client.get(url("matches:hand_detail", match, 99)).status_code == 404
    assert client.post(url("matches:hand_edit", match, 99), {}).status_code == 404
    assert client.post(url("matches:hand_delete", match, 99)).status_code == 404


@pytest.mark.parametrize(
    "field_values",
    [
        {"p1-remaining": "-5"},
        {"p1-remaining": "1000"},
        {"p1-remaining": "abc"},
        {"p1-okeys": "7"},
        {"okey_number": "14"},
        {"finisher": "9"},
        {"p1-opened": "maybe"},
        {"p1-pen-TOTAL_FORMS": "999", "action": "save"},
        {"p1-pen-TOTAL_FORMS": "1", "p1-pen-0-kind": "take_back"},  # not in this ruleset
        {"p1-pen-TOTAL_FORMS": "x"},
        {"p1-pen-TOTAL_FORMS": "1", "p1-pen-0-kind": "custom"},  # no points
        {"p1-remaining": ""},  # opened, sum forgotten: never read as 0
        {"p2-remaining": "34"},  # did not open, sum typed: never ignored
    ],
)
def test_out_of_range_values_get_a_message_and_change_nothing(client, field_values):
    match = make_match()
    data = {**form_data(sample_inputs()), **field_values}

    response = client.post(url("matches:hand_create", match), data)

    assert response.status_code == 200
    assert response.context["entry"].all_errors()
    assert not Hand.objects.exists()


# --- Query counts: they must not grow with the number of hands ------------------------------


def queries_of(request) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as queries:
        response = request()
    assert response.status_code == 200
    return len(queries), response


def test_match_page_queries_do_not_grow_with_hands(client):
    counts = []
    for hands in (1, 13, 200):
        # Still in play (the next hand's form on the page), whatever the number of hands.
        match = make_match(hands=hands, planned_hands=hands + 5)
        count, response = queries_of(lambda m=match: client.get(url("matches:match_detail", m)))
        counts.append(count)
        rows = response.content.decode().count("<tr data-hand=")
        assert len(response.context["hands"]) == rows == hands
    assert counts[0] == counts[1] == counts[2], counts


def test_hand_save_queries_do_not_grow_with_hands(client):
    counts = []
    for hands in (1, 13, 200):
        match = make_match(hands=hands, planned_hands=250)
        data = form_data(sample_inputs(), position=hands + 1)  # the form sends the hand's place
        save = lambda m=match, d=data: client.post(url("matches:hand_create", m), d, headers=HTMX)  # noqa: E731
        counts.append(queries_of(save)[0])
        assert match.hands.count() == hands + 1
    assert counts[0] == counts[1] == counts[2], counts


def test_the_preview_puts_the_engines_message_beside_its_field_out_of_band(client):
    match = make_match()
    inputs = sample_inputs()
    inputs["players"][0]["remaining"] = 12  # the finisher holds no tiles

    response = client.post(
        url("matches:hand_create", match), form_data(inputs, action="preview"), headers=PREVIEW
    )

    html = response.content.decode()
    beside = html.split('<div id="id_p0-remaining-errors" class="field-errors" hx-swap-oob="true">')
    assert len(beside) == 2
    assert "errorlist" in beside[1].split("</div>")[0]
    # Every other field's container comes too, empty, so that fixed errors disappear.
    assert '<div id="id_p1-remaining-errors" class="field-errors" hx-swap-oob="true"></div>' in html
    assert not Hand.objects.exists()
