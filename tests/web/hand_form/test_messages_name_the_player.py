"""Every message the hand sheet can show names the player it is about — the engine's, the
form's and Django's own — with the right suffix, in Turkish and in English, and none speaks of
seat numbers, JSON types or retired words. Messages about the hand as a whole name the players
to choose from ("Kimin bitirdiğini seçin: Ali, Ayşe, …")."""

import copy

import pytest
from django.conf import settings
from django.urls import reverse

from scoring.vocabulary import CONTRACT_WORDS, SEAT_NUMBER, retired_in
from tests.factories import NAMES, form_data, make_match, sample_inputs

pytestmark = pytest.mark.django_db

ALI, AYSE, CAN, DENIZ = NAMES


def hand(**seats) -> dict:
    """The plain hand (Ali finishes, Ayşe opened with 20 left), with some seats changed:
    hand(s1={"remaining": 300})."""
    inputs = copy.deepcopy(sample_inputs())
    for key, changes in seats.items():
        inputs["players"][int(key[1:])].update(changes)
    return inputs


def data(inputs: dict, **extra) -> dict:
    posted = form_data(inputs, action="preview")
    posted.update(extra)
    return {key: value for key, value in posted.items() if value is not None}


# (preset, POST data, the name (with its suffix) the message must hold, a word of the message)
CASES = {
    "nobody chose who finished": (
        "cetele-standart",
        data(hand(), finisher=None),
        f"{ALI}, {AYSE}, {CAN}, {DENIZ}",
        "Kimin bitirdiğini",
    ),
    "an okey finish without a finisher": (
        "cetele-standart",
        data({**hand(), "finisher": None, "okey_finish": True, "players": [{}] * 4}),
        f"{ALI}, {AYSE}, {CAN} ya da {DENIZ}",
        "Okeyle bitiş",
    ),
    "the finisher kept an okey": (
        "cetele-standart",
        data(hand(s0={"okeys": 1})),
        f"{ALI} bitirdi",
        "okey",
    ),
    "a pair opener's kafa where the rules have none": (
        "cetele-standart",
        data({**hand(s0={"opened": "pairs"}), "kafa": True}),
        f"{ALI} çift açtı",
        "elden bitemez",
    ),
    "kafa after someone else opened": (
        "om-klasik",
        data({**hand(), "kafa": True}),
        f"{AYSE} açmış",
        "kafa",
    ),
    "a sum over the most tiles can make": (
        "cetele-standart",
        data(hand(s1={"remaining": 300})),
        AYSE,
        "255",
    ),
    "three okeys in hands": (
        "cetele-standart",
        data(hand(s1={"okeys": 2}, s2={"okeys": 1})),
        CAN,
        "2 okey",
    ),
    "a fake okey left and no okey number": (
        "cetele-standart",
        data(hand(s2={"opened": "series", "remaining": 5, "fake_okeys": 1})),
        f"{CAN}'ın elinde sahte okey kaldı",
        "Okey kaç?",
    ),
    "an opening below the minimum": (
        "om-kademeli",
        data(hand(s1={"opening": 50})),
        AYSE,
        "en az 101",
    ),
    "an opening typed for a player who did not open": (
        "om-kademeli",
        data(hand(s2={"opening": 150})),
        f"{CAN} açmadı",
        "açılış",
    ),
    "more pairs than tiles allow": (
        "om-kademeli",
        data(hand(s1={"opened": "pairs", "opening": 11})),
        AYSE,
        "en fazla 10 çift",
    ),
    "çifte devam after runs": (
        "om-zorlu",
        data(hand(s1={"cifte_devam": True})),
        AYSE,
        "çifte devam",
    ),
    "an işlek tile taken, its number missing": (
        "cetele-standart",
        data(hand(s1={"penalties": [{"kind": "islek_discard", "taken": True}]})),
        AYSE,
        "taşın sayısını seçin",
    ),
    "an okey taken, by whom missing": (
        "cetele-standart",
        data(hand(s1={"penalties": [{"kind": "okey_taken"}]})),
        AYSE,
        "okeyi kimin aldığını seçin",
    ),
    "a used discard, where missing": (
        "om-zorlu",
        data(
            hand(s1={"penalties": [{"kind": "discard_used", "tile": 9}]}),
            **{"p1-pen-0-used_for": ""},
        ),
        AYSE,
        "nerede kullanıldığını",
    ),
    "a used discard, its number missing": (
        "om-zorlu",
        data(hand(s1={"penalties": [{"kind": "discard_used", "used_for": "series"}]})),
        AYSE,
        "taşın sayısını seçin",
    ),
    "a custom penalty without points": (
        "cetele-standart",
        data(hand(s1={"penalties": [{"kind": "custom"}]})),
        AYSE,
        "puanını yazın",
    ),
    "the okey taken by the player themself (a tampered form)": (
        "cetele-standart",
        data(hand(s1={"penalties": [{"kind": "okey_taken", "by": 1}]})),
        AYSE,
        "listeden birini seçin",
    ),
    "a sum that is not a number": (
        "cetele-standart",
        data(hand(), **{"p1-remaining": "yirmi"}),
        AYSE,
        "tam sayı",
    ),
    "a sum typed for a player who did not open": (
        "cetele-standart",
        data(hand(s2={"remaining": 12})),
        f"{CAN} açmadı",
        "toplam",
    ),
    "an opener's sum left empty": (
        "cetele-standart",
        data(hand(s1={"remaining": None})),
        AYSE,
        "toplamını yazın",
    ),
}


def shown_errors(response) -> list[str]:
    """Every message on the sheet: beside each field, above the form and in the preview list."""
    entry = response.context["entry"]
    forms = [entry.hand_form]
    for seat in entry.seat_forms:
        forms += [seat, *seat.penalties.forms]
    shown = [str(e) for form in forms for errors in form.errors.values() for e in errors]
    shown += [str(e) for seat in entry.seat_forms for e in seat.penalties.non_form_errors()]
    return shown + list(entry.all_errors()) + list(map(str, entry.non_field_errors))


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_every_message_of_the_sheet_names_the_player(client, case):
    preset, posted, who, words = case
    match = make_match(preset=preset)

    response = client.post(reverse("matches:hand_create", args=[match.edit_token]), posted)
    errors = shown_errors(response)

    assert errors, "the case shows no message"
    assert any(who in error and words in error for error in errors), errors
    for error in errors:
        assert any(name in error for name in NAMES), error
        assert not SEAT_NUMBER.search(error) and not CONTRACT_WORDS.search(error), error
        assert retired_in(error, "tr") == [], error


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_every_message_of_the_sheet_names_the_player_in_english(client, case):
    preset, posted, _who, _words = case
    match = make_match(preset=preset)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"

    response = client.post(reverse("matches:hand_create", args=[match.edit_token]), posted)
    errors = shown_errors(response)

    assert errors
    for error in errors:
        assert any(name in error for name in NAMES), error
        assert not SEAT_NUMBER.search(error) and not CONTRACT_WORDS.search(error), error
        assert retired_in(error, "en") == [], error


def test_the_indicators_colour_is_the_one_message_about_nobody(client):
    """Which colour the indicator was concerns no player: the message says what to choose."""
    match = make_match(preset="cetele-standart")
    match.rules = {
        **match.rules,
        "colours": {
            "multipliers": dict.fromkeys(("red", "blue", "black", "yellow"), 2),
            "scope": "finish",
        },
    }
    match.save()

    response = client.post(reverse("matches:hand_create", args=[match.edit_token]), data(hand()))

    assert shown_errors(response)[0] == "Göstergenin rengini seçin."
