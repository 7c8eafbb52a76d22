"""The hand form never saves what the table did not mean: no empty sum read as 0, no typed sum
ignored, no hand saved twice from two phones, and a hand's inputs survive the form both ways."""

import json
import re
import threading
import time

import pytest
from django.db import connection
from django.http import QueryDict
from django.urls import reverse

import scoring
from cetele.hand_form.entry import HandEntry
from cetele.models import AlreadySaved, Hand, HandTaken, Match, MatchFinished
from tests.factories import add_hand, form_data, make_match, sample_inputs, undo

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def url(name: str, match: Match, *args) -> str:
    return reverse(name, args=[match.edit_token, *args])


def errors_of(response) -> list[str]:
    return response.context["entry"].all_errors()


def test_an_empty_sum_for_a_player_who_opened_is_an_error_naming_the_player(client):
    match = make_match()
    inputs = sample_inputs(finisher=0)
    del inputs["players"][1]["remaining"]  # Ayşe opened, the sum box left empty

    response = client.post(url("matches:hand_create", match), form_data(inputs))

    assert "Ayşe: elinde kalan taşların toplamını yazın." in errors_of(response)
    assert not Hand.objects.exists()


def test_a_typed_zero_is_saved_as_zero(client):
    match = make_match()

    client.post(
        url("matches:hand_create", match), form_data(sample_inputs(finisher=0, remaining=0))
    )

    assert Hand.objects.get().inputs["players"][1]["remaining"] == 0


def test_a_sum_typed_for_a_player_who_did_not_open_is_refused_not_ignored(client):
    match = make_match()
    data = form_data(sample_inputs(finisher=0))
    data["p2-remaining"] = "34"  # Can still on "Açmadı"

    response = client.post(url("matches:hand_create", match), data)

    assert any(line.startswith("Can açmadı ama toplam yazılı") for line in errors_of(response))
    assert response.context["entry"].seat_forms[2].errors["remaining"]
    assert not Hand.objects.exists()


def test_the_finishers_partner_who_writes_zero_needs_no_sum(client):
    match = make_match(teams=True)
    inputs = sample_inputs(finisher=0)
    inputs["players"][2] = {"opened": "series"}  # Can, Ali's partner, opened: writes 0

    response = client.post(url("matches:hand_create", match), form_data(inputs))

    assert response.status_code == 302
    assert Hand.objects.get().scores[2] == 0


def test_engine_messages_name_the_player_not_the_seat(client):
    match = make_match()
    inputs = sample_inputs(finisher=0)
    inputs["players"][1]["remaining"] = 300  # more than 21 tiles can hold

    response = client.post(url("matches:hand_create", match), form_data(inputs))

    errors = errors_of(response)
    assert errors and all("Oyuncu" not in line for line in errors)
    assert any(line.startswith("Ayşe") and "255" in line for line in errors)


def test_a_new_hand_saved_from_two_phones_is_caught_and_can_still_be_added_deliberately(client):
    match = make_match(hands=4)
    mine = sample_inputs(finisher=2, remaining=40)
    # Another phone saved hand 5 while this one was typing it.
    add_hand(match, sample_inputs(finisher=1, remaining=12))

    caught = client.post(
        url("matches:hand_create", match), form_data(mine, position=5), headers=HTMX
    )

    html = caught.content.decode()
    assert "5. el az önce başka bir telefondan kaydedildi" in html
    assert "Benimkini 6. el olarak ekle" in html
    assert caught.context["entry"].result is not None  # the phone's own hand is still there
    assert [p for p, _ in caught.context["entry"].taken] == [5]
    assert match.hands.count() == 5

    data = form_data(mine, position=5, action="save-next")
    added = client.post(url("matches:hand_create", match), data, headers=HTMX)

    assert added.status_code == 200
    assert "6. el kaydedildi" in added.content.decode()
    assert match.hands.count() == 6
    assert match.hands.last().inputs == Hand.objects.get(match=match, number=6).inputs


def test_a_new_hand_at_its_place_saves_and_says_which_hand_it_was(client):
    match = make_match(hands=2)

    response = client.post(
        url("matches:hand_create", match), form_data(sample_inputs(), position=3), headers=HTMX
    )

    html = response.content.decode()
    assert "3. el kaydedildi" in html
    assert "Geri al" in html
    assert json.loads(response["HX-Trigger"])["cetele:hand-saved"]["position"] == 3
    assert "4. el" in html  # the next hand's form


def test_match_add_hand_scores_the_hand_itself():
    match = make_match()
    inputs = sample_inputs(finisher=1, remaining=33)

    hand = match.add_hand(inputs, "token-1")

    expected = scoring.score_json({"rules": match.rules, "teams": False, "hand": inputs})
    assert hand.result == expected
    with pytest.raises(scoring.InvalidHand):
        match.add_hand({"finisher": 9, "players": inputs["players"]}, "token-2")
    assert match.hands.count() == 1


def test_a_new_hand_is_checked_against_the_match_as_it_is_under_the_lock():
    """Match.add_hand reads the match, its hands and the request token once it has taken the
    next version: each check it feeds still refuses what it refused as separate queries, and a
    refused hand leaves the version as it was."""
    match = make_match(planned_hands=4)
    match.add_hand(sample_inputs(finisher=0), "token-1", position=1)

    with pytest.raises(AlreadySaved):  # the same form again (a double tap, a retry)
        match.add_hand(sample_inputs(finisher=1), "token-1", position=2)
    with pytest.raises(HandTaken) as taken:  # place 1 was saved by another phone meanwhile
        match.add_hand(sample_inputs(finisher=1), "token-2", position=1)
    assert [hand.number for hand in taken.value.hands] == [1]
    undo(match)  # an undo is recorded with a blank request token ...
    match.add_hand(sample_inputs(finisher=1), "", position=1)  # ... which a blank one is not
    assert match.changes.filter(request_token="").count() == 2
    match.add_hand(sample_inputs(finisher=2), None)
    match.add_hand(sample_inputs(finisher=3), "token-3")
    match.delete_hand(1)  # hands keep their numbers: the next is after the last, not the count
    fourth = match.add_hand(sample_inputs(finisher=0), "token-4")
    assert (fourth.number, fourth.position) == (4, 3)
    match.add_hand(sample_inputs(finisher=1), "token-5")
    with pytest.raises(MatchFinished):
        match.add_hand(sample_inputs(finisher=2), "token-6")
    assert list(match.hands.values_list("number", flat=True)) == [2, 3, 4, 5]
    assert match.version == 8  # six hands added, one undone, one deleted: each bumped it once
    match.refresh_from_db()
    assert match.version == 8  # and the refused ones did not


def test_the_correction_page_previews_the_stored_hands_scores(client):
    match = make_match()
    hand = add_hand(match, sample_inputs(finisher=0, remaining=37))

    html = client.get(url("matches:hand_detail", match, hand.number)).content.decode()

    preview = html.split('id="hand-preview"')[1].split("</details>")[0]
    assert "Ayşe <strong>37</strong>" in preview
    assert "Kimin bitirdiğini ve elde kalanları girin" not in html


ROUND_TRIP_HANDS = [
    sample_inputs(finisher=0, remaining=20),
    sample_inputs(finisher=None, remaining=0),
    {
        "finisher": 1,
        "okey_finish": True,
        "kafa": False,
        "okey_number": 7,
        "players": [
            {"opened": "pairs", "remaining": 40, "okeys": 1, "fake_okeys": 0, "penalties": []},
            {"opened": "series", "okeys": 0, "fake_okeys": 0, "penalties": []},
            {
                "opened": "series",
                "remaining": 12,
                "okeys": 0,
                "fake_okeys": 1,
                "penalties": [
                    {"kind": "islek_discard", "taken": True, "tile": 8},
                    {"kind": "custom", "points": -50, "note": "rakı"},
                ],
            },
            {
                "opened": "no",
                "okeys": 0,
                "fake_okeys": 0,
                "penalties": [{"kind": "okey_taken", "by": 1}],
            },
        ],
    },
]


@pytest.mark.parametrize("inputs", ROUND_TRIP_HANDS)
def test_a_hands_inputs_round_trip_through_the_correction_form(inputs):
    """Stored inputs → the correction form's values → submitted back → the same inputs."""
    match = make_match()
    hand = add_hand(match, inputs)
    players = list(match.players.all())
    shown = HandEntry(match, players, position=1, hand=hand)

    data = QueryDict(mutable=True)
    for form in shown.forms():
        for field in form:
            value = field.value()
            if value is None or value is False or value == "":
                continue
            data[field.html_name] = "on" if value is True else str(value)
    submitted = HandEntry(match, players, data, position=1, hand=hand)

    assert submitted.is_valid(), submitted.all_errors()
    assert normalised(submitted.inputs) == normalised(hand.inputs)
    assert submitted.result == hand.result


def normalised(inputs: dict) -> dict:
    """Defaults spelled out, as the engine reads them (RULES.md's contract)."""
    seats = [{"okeys": 0, "fake_okeys": 0, "penalties": [], **seat} for seat in inputs["players"]]
    return {"okey_finish": False, "kafa": False, **inputs, "players": seats}


def test_a_sum_over_the_limit_says_why_in_the_engines_words(client):
    match = make_match()
    inputs = sample_inputs(finisher=0)
    inputs["players"][1]["remaining"] = 256

    response = client.post(url("matches:hand_create", match), form_data(inputs))

    message = " ".join(response.context["entry"].seat_forms[1].errors["remaining"])
    assert "21 taşla en fazla 255 olur" in message
    assert "Ayşe" in message and "Oyuncu" not in message
    assert "değerinden az veya eşit" not in response.content.decode()  # Django's generic words


def test_penalty_names_are_capitalised_by_turkish_rules(client):
    match = make_match()

    response = client.post(
        url("matches:hand_create", match),
        form_data(sample_inputs(), action="add-penalty-0"),
        headers=HTMX,
    )

    html = response.content.decode()
    assert "İşlek taş attı" in html
    assert "Işlek" not in html


def test_the_match_names_its_rules_as_the_preset_list_does_in_the_pages_language(client):
    match = make_match(preset="cetele-standart")

    turkish = client.get(url("matches:match_detail", match)).content.decode()
    client.cookies["django_language"] = "en"
    english = client.get(url("matches:match_detail", match)).content.decode()

    assert "Çetele Standart" in turkish and "Okey 101 Çetele — Standart" not in turkish
    assert "Çetele Standard" in english and "Çetele Standart" not in english


def test_renaming_two_players_to_the_same_name_is_refused(client):
    match = make_match()

    response = client.post(
        url("matches:match_players", match),
        {"seat_0": "Ali", "seat_1": "ALİ", "seat_2": "Can", "seat_3": "Deniz"},
    )

    assert response.status_code == 200
    assert "Bu ad başka bir oyuncuda da var" in response.content.decode()
    assert [p.name for p in match.players.all()] == ["Ali", "Ayşe", "Can", "Deniz"]


def house_rules_match(planned_hands: int = 3) -> Match:
    rules = scoring.resolve_rules(
        {
            "preset": "cetele-standart",
            "override": {
                "riziko": {"multiplier": 2},
                "colours": {
                    "multipliers": {"red": 1, "blue": 4, "black": 3, "yellow": 2},
                    "scope": "finish",
                },
                "last_hand_multiplier": 10,
            },
        }
    )
    return Match.start(
        ["Ali", "Ayşe", "Can", "Deniz"], teams=False, planned_hands=planned_hands, rules=rules
    )


def test_the_last_hand_says_so_on_the_form_and_counts_n_times(client):
    match = house_rules_match(planned_hands=2)
    first = sample_inputs(finisher=0, remaining=10) | {"colour": "red"}
    client.post(url("matches:hand_create", match), form_data(first, position=1))

    page = client.get(url("matches:match_detail", match)).content.decode()
    inputs = sample_inputs(finisher=1, remaining=10) | {"colour": "red"}
    client.post(url("matches:hand_create", match), form_data(inputs, position=2))

    assert "Son el: ×10" in page
    saved = match.hands.get(number=2)
    assert saved.inputs["last_hand"] is True and saved.inputs["riziko"] is False
    expected = scoring.score_json({"rules": match.rules, "hand": saved.inputs})
    assert saved.result == expected
    assert saved.scores[1] == -101 * 10
    assert match.hands.get(number=1).inputs["last_hand"] is False


def test_riziko_and_the_indicators_colour_are_asked_where_the_rules_have_them(client):
    """The gösterge's colour is offered at every table (it names the okey) and required where
    the rules have colours; "sahte okey" (riziko) only where the rules have riziko."""
    plain = make_match()
    house = house_rules_match()

    plain_page = client.get(url("matches:match_detail", plain)).content.decode()
    house_page = client.get(url("matches:match_detail", house)).content.decode()
    missing_colour = client.post(url("matches:hand_create", house), form_data(sample_inputs()))
    inputs = sample_inputs(finisher=0, remaining=10) | {"riziko": True, "colour": "blue"}
    client.post(url("matches:hand_create", house), form_data(inputs, position=1))

    assert 'name="riziko"' not in plain_page and plain_page.count('name="colour"') == 4
    assert 'name="riziko"' in house_page and house_page.count('name="colour"') == 4
    assert "Göstergenin rengini seçin." in missing_colour.content.decode()
    assert (
        "Göstergenin rengini seçin."
        not in client.post(
            url("matches:hand_create", plain), form_data(sample_inputs(), position=1)
        ).content.decode()
    )
    saved = house.hands.get()
    assert saved.inputs["riziko"] is True and saved.inputs["colour"] == "blue"
    assert saved.scores[0] == -101 * 2 * 4  # the finish row × 2 (riziko) × 4 (mavi)
    assert saved.result == scoring.score_json({"rules": house.rules, "hand": saved.inputs})


def test_a_removed_penalty_row_does_not_block_the_save_even_when_half_filled(client):
    match = make_match()
    data = form_data(sample_inputs(finisher=0, remaining=10))
    data.update({"p1-pen-TOTAL_FORMS": "1", "p1-pen-0-kind": "custom", "p1-pen-0-DELETE": "on"})

    response = client.post(url("matches:hand_create", match), data)  # no points: it was removed

    assert response.status_code == 302
    assert Hand.objects.get().inputs["players"][1]["penalties"] == []


def test_a_penalty_row_sent_without_its_count_is_refused_not_dropped(client):
    """A player's penalty formset is made only when the form sends any of it: a row sent
    without the count beside it must still be refused, never saved without its penalty."""
    match = make_match()
    data = form_data(sample_inputs(finisher=0, remaining=10))
    del data["p1-pen-TOTAL_FORMS"]
    data.update({"p1-pen-0-kind": "custom", "p1-pen-0-points": "50"})

    response = client.post(url("matches:hand_create", match), data)

    assert response.status_code == 200 and not Hand.objects.exists()
    assert any(error.startswith("Ayşe: ") for error in errors_of(response))


def test_players_whose_penalty_rows_were_not_sent_have_no_penalty(client):
    match = make_match()
    data = form_data(sample_inputs(finisher=0, remaining=10))
    for key in [key for key in data if key.startswith(("p0-pen-", "p2-pen-", "p3-pen-"))]:
        del data[key]
    data.update({"p1-pen-TOTAL_FORMS": "1", "p1-pen-0-kind": "custom", "p1-pen-0-points": "50"})

    assert client.post(url("matches:hand_create", match), data).status_code == 302

    players = Hand.objects.get().inputs["players"]
    assert [len(player["penalties"]) for player in players] == [0, 1, 0, 0]
    assert players[1]["penalties"] == [{"kind": "custom", "points": 50}]


def test_an_htmx_retry_of_a_saved_hand_names_the_hand_not_a_redirect(client):
    match = make_match()
    data = form_data(sample_inputs(), token="retried", position=1)
    client.post(url("matches:hand_create", match), data, headers=HTMX)

    retried = client.post(url("matches:hand_create", match), data, headers=HTMX)

    html = retried.content.decode()
    assert retried.status_code == 200
    assert "Bu el zaten kaydedildi." in html
    # The page asks for the sheet and marks the hand's row (static/cetele/app.js).
    saved = json.loads(retried["HX-Trigger"])["cetele:hand-saved"]
    assert saved == {"token": "retried", "position": 1, "number": match.hands.get().number}
    assert match.hands.count() == 1


def fields_as_drawn(entry: HandEntry) -> list:
    """Everything a form could change in place on its fields: choices (the field's and the
    widget's), widget attributes, messages and validators."""
    drawn = []
    for form in (entry.hand_form, *entry.seat_forms):
        for name, field in form.fields.items():
            widget = field.widget
            drawn.append(
                (
                    form.prefix,
                    name,
                    list(getattr(field, "choices", [])),
                    list(getattr(widget, "choices", [])),
                    dict(widget.attrs),
                    {key: str(text) for key, text in field.error_messages.items()},
                    list(field.validators),
                    field.required,
                )
            )
    return drawn


def test_the_fields_a_form_shares_name_its_player_and_nothing_changes_them(client):
    """Each form's fields name its own player, the declared fields name nobody, and nothing a
    table does (previews with errors and without, a save, a refused hand, the sheet, a
    correction) changes the fields the next form gets."""
    from cetele.hand_form.forms import HandLevelForm, SeatForm

    match = make_match()
    players = list(match.players.all())
    entry = HandEntry(match, players, position=1)
    before = fields_as_drawn(entry)

    labels = [form.fields["remaining"].widget.attrs["aria-label"] for form in entry.seat_forms]
    assert labels == [
        f"{name}: eldeki taşların toplamı" for name in ("Ali", "Ayşe", "Can", "Deniz")
    ]
    required = [form.fields["opened"].error_messages["required"] for form in entry.seat_forms]
    assert required[0].startswith("Ali:") and required[1].startswith("Ayşe:")
    assert "aria-label" not in SeatForm.base_fields["remaining"].widget.attrs
    assert "Ali" not in SeatForm.base_fields["opened"].error_messages["required"]
    assert "Ali" not in str(HandLevelForm.base_fields["finisher"].error_messages["required"])
    # Each form has its own dict of them: a form that drops a field drops it from itself only.
    del entry.seat_forms[0].fields["okeys"]
    assert "okeys" in HandEntry(match, players, position=1).seat_forms[0].fields

    missing = form_data(sample_inputs(finisher=0), action="preview")
    del missing["p1-remaining"]
    too_many = form_data(sample_inputs(finisher=0), action="preview")
    too_many["p1-remaining"] = "300"
    scores = form_data(sample_inputs(finisher=1), action="preview")
    for data in (missing, too_many, scores):  # previewed while typed, and without JavaScript
        client.post(
            url("matches:hand_create", match), data, headers=HTMX | {"HX-Target": "hand-preview"}
        )
        client.post(url("matches:hand_create", match), data)
    client.post(url("matches:hand_create", match), form_data(sample_inputs(finisher=2), position=1))
    client.get(url("matches:match_detail", match))
    client.get(url("matches:hand_detail", match, match.hands.get().number))

    assert match.hands.count() == 1
    assert fields_as_drawn(HandEntry(match, players, position=2)) == before


def test_a_penalty_row_changing_its_fields_in_place_changes_no_other_row():
    """A change to one penalty row's choices, widget attributes, messages or validators stays in
    that row, and the declared fields stay as declared."""
    from cetele.hand_form.forms import PenaltyForm

    match = make_match()
    ali, ayse, *others = list(match.players.all())
    kinds = ["custom"]
    one = PenaltyForm(kinds=kinds, others=[ayse, *others], player=ali)
    two = PenaltyForm(kinds=kinds, others=[ali, *others], player=ayse)

    one.fields["kind"].choices.append(("odd", "odd"))
    one.fields["by"].widget.choices.append(("odd", "odd"))
    one.fields["points"].widget.attrs["data-odd"] = "1"
    one.fields["points"].error_messages["invalid"] = "odd"
    one.fields["points"].validators.append(lambda value: None)

    for form in (two, PenaltyForm):
        fields = form.base_fields if form is PenaltyForm else form.fields
        assert ("odd", "odd") not in fields["kind"].choices
        assert ("odd", "odd") not in fields["by"].widget.choices
        assert "data-odd" not in fields["points"].widget.attrs
        assert fields["points"].error_messages["invalid"] != "odd"
        assert len(fields["points"].validators) == len(PenaltyForm.base_fields["points"].validators)
    # Each row's messages and "Kim aldı?" are its own player's.
    assert two.fields["points"].error_messages["invalid"].startswith("Ayşe:")
    assert [label for _, label in two.fields["by"].choices][1] == "Ali"


def test_the_shared_fields_are_each_language_s_own():
    from django.utils import translation

    match = make_match()
    players = list(match.players.all())
    turkish = HandEntry(match, players, position=1).seat_forms[1].fields["remaining"]
    with translation.override("en"):
        english = HandEntry(match, players, position=1).seat_forms[1].fields["remaining"]

    assert turkish.widget.attrs["aria-label"] == "Ayşe: eldeki taşların toplamı"
    assert english.widget.attrs["aria-label"].startswith("Ayşe")
    assert english.widget.attrs["aria-label"] != turkish.widget.attrs["aria-label"]


def error_containers(html: str, oob: bool) -> dict[str, str]:
    """The field error containers in a page or an answer: id -> what is inside."""
    swap = ' hx-swap-oob="true"' if oob else ""
    pattern = rf'<div id="([^"]+)-errors" class="field-errors"{swap}>(.*?)</div>'
    return dict(re.findall(pattern, html, re.S))


@pytest.mark.parametrize("rules", ["cetele-standart", "om-zorlu", "house"])
def test_a_preview_with_errors_refreshes_every_error_container_the_form_shows(client, rules):
    """Typing refreshes the preview, and every field's errors out of band: each container the
    form draws (om-zorlu adds the opening and "çifte devam" fields, the house rules riziko and
    the indicator's colour, the penalty row its own) gets its errors, or is emptied, so that an
    error once fixed disappears."""
    match = house_rules_match() if rules == "house" else make_match(preset=rules)
    inputs = sample_inputs(finisher=0)
    del inputs["players"][1]["remaining"]
    data = form_data(inputs) | {
        "p2-okeys": "7",
        "p3-pen-TOTAL_FORMS": "1",
        "p3-pen-0-kind": "custom",
    }

    drawn = client.post(url("matches:hand_create", match), data | {"action": "save"}, headers=HTMX)
    preview = client.post(
        url("matches:hand_create", match),
        data | {"action": "preview"},
        headers=HTMX | {"HX-Target": "hand-preview"},
    )

    form = error_containers(drawn.content.decode(), oob=False)
    refreshed = error_containers(preview.content.decode(), oob=True)
    assert set(refreshed) == set(form)
    assert refreshed == form
    assert sum("<li>" in errors for errors in refreshed.values()) >= 2  # okeys, the penalty
    assert not Hand.objects.exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor == "sqlite",
    reason="SQLite's test database is in memory, where a second writer fails at once instead of "
    "waiting; on a file (the server's), IMMEDIATE transactions make it wait before it reads",
)
def test_two_phones_saving_the_same_place_at_once_get_one_saved_and_one_told(monkeypatch):
    """The second save waits for the first's lock; what it then checks must be the match as the
    first left it: its hand is refused as taken ("another phone saved this place"), never
    taken for a retry of its own ("already saved") and dropped in silence."""
    match = make_match(planned_hands=5)
    first_locked, second_started = threading.Event(), threading.Event()
    lock = Match._lock

    def slow_lock(self, *args, **kwargs):  # the first save holds its lock a moment
        locked = lock(self, *args, **kwargs)
        if threading.current_thread().name == "first":
            first_locked.set()
            second_started.wait(5)
            time.sleep(0.3)  # the second is now waiting for the lock
        return locked

    monkeypatch.setattr(Match, "_lock", slow_lock)
    outcomes = {}

    def phone(token: str) -> None:
        try:
            Match.objects.get(pk=match.pk).add_hand(sample_inputs(), token, position=1)
            outcomes[token] = "saved"
        except (AlreadySaved, HandTaken) as refusal:
            outcomes[token] = type(refusal).__name__
        finally:
            connection.close()

    first = threading.Thread(target=phone, args=("first-token",), name="first")
    first.start()
    assert first_locked.wait(5)
    second = threading.Thread(target=phone, args=("second-token",), name="second")
    second.start()
    second_started.set()
    first.join(10)
    second.join(10)

    assert outcomes == {"first-token": "saved", "second-token": "HandTaken"}
    assert match.hands.count() == 1


def test_a_match_found_by_its_link_scores_by_its_rules_text_and_by_new_rules_if_given():
    from cetele.sharing.links import EDIT, match_by_token

    match = make_match()
    found = match_by_token(EDIT, match.edit_token)
    inputs = sample_inputs(finisher=1, remaining=33)

    assert found.score(inputs) == scoring.score_json(found.scoring_request(inputs))
    # Rules given to the object since are the ones it scores with, not the text read before.
    found.rules = scoring.resolve_rules("om-klasik")
    assert found.ruleset() == scoring.ruleset_for(found.rules)
    assert found.ruleset() != scoring.ruleset_for(match.rules)
    assert found.score(inputs) == scoring.score_json(found.scoring_request(inputs))


def test_a_retried_last_hand_is_already_saved_not_a_finished_match():
    """A double tap on the match's last hand: its second request, with or without the place it
    was entered as, is told the hand is saved, not that the match is over or the place taken."""
    match = make_match(planned_hands=1)
    match.add_hand(sample_inputs(), "last", position=1)

    with pytest.raises(AlreadySaved):
        match.add_hand(sample_inputs(), "last", position=1)
    with pytest.raises(AlreadySaved):
        match.add_hand(sample_inputs(), "last")
    with pytest.raises(MatchFinished):  # another form: the match is over
        match.add_hand(sample_inputs(), "another")
    assert match.hands.count() == 1 and Match.objects.get(pk=match.pk).version == 1


def test_a_request_for_the_preview_alone_never_saves_whatever_button_it_carries(client):
    """htmx adds the last submit button clicked to the form's own requests: the preview of the
    keystroke just before "Eli kaydet" carries action=save. It is answered as a preview (the
    save's own request, for the whole form, saves): no hand, and no form drawn in the preview."""
    match = make_match()
    data = form_data(sample_inputs(finisher=0), action="save", position=1)

    preview = client.post(
        url("matches:hand_create", match), data, headers=HTMX | {"HX-Target": "hand-preview"}
    )

    assert preview.status_code == 200
    assert match.hands.count() == 0
    html = preview.content.decode()
    assert 'id="hand-preview"' in html and 'id="hand-form"' not in html
    assert "kaydedildi" not in html

    saved = client.post(
        url("matches:hand_create", match), data, headers=HTMX | {"HX-Target": "hand-form"}
    )

    assert match.hands.count() == 1
    assert "1. el kaydedildi." in saved.content.decode()


def test_a_typed_row_before_the_finisher_waits_for_the_finisher_without_an_error(client):
    """A phone's row or the scorer's first sum comes before anyone chose who finished: the
    preview keeps asking who finished, in its quiet words, and no field turns red. A mistake
    typed is still shown at once, and a save without the finisher is still refused."""
    match = make_match()
    data = form_data(sample_inputs(finisher=0, remaining=35), position=1)
    del data["finisher"]
    typing = HTMX | {"HX-Target": "hand-preview"}

    html = client.post(url("matches:hand_create", match), data, headers=typing).content.decode()

    assert "Kimin bitirdiğini ve elde kalanları girin" in html
    assert "errorlist" not in html and "Kimin bitirdiğini seçin" not in html

    wrong = client.post(
        url("matches:hand_create", match), data | {"p1-remaining": "yirmi"}, headers=typing
    )

    assert "Ayşe: bir tam sayı yazın." in wrong.content.decode()

    saved = client.post(url("matches:hand_create", match), data | {"action": "save"}, headers=HTMX)

    assert "Kimin bitirdiğini seçin" in saved.content.decode()
    assert match.hands.count() == 0
