"""A house rule from its declaration to every place a player meets it: a flat amount for losers
who opened (finishes.<kind>.opened_flat), in the editor, on the rules page and in a hand's
reasons."""

import pytest
from django.urls import reverse

import scoring
from cetele.models import Match
from tests.factories import add_hand, form_data

pytestmark = pytest.mark.django_db


def flat_kafa_match() -> Match:
    rules = scoring.resolve_rules("cetele-standart")
    rules["finishes"]["kafa"]["opened_flat"] = 808
    return Match.start(["Ali", "Ayşe", "Can", "Deniz"], teams=False, planned_hands=5, rules=rules)


def test_the_editor_offers_the_flat_amount_on_every_row_but_none(client):
    html = client.get(reverse("house_rules:preset_new")).content.decode()

    assert 'name="r-finishes__kafa__opened_flat"' in html
    assert 'name="r-finishes__normal__opened_flat"' in html
    assert 'name="r-finishes__none__opened_flat"' not in html
    assert "Açana sabit" in html


def test_the_rules_page_and_the_hand_show_the_flat_amount(client):
    match = flat_kafa_match()
    inputs = {
        "finisher": 0,
        "okey_finish": False,
        "kafa": True,
        "players": [
            {"opened": "series"},
            {"opened": "series", "remaining": 30},
            {"opened": "no"},
            {"opened": "pairs", "remaining": 120},
        ],
    }
    hand = add_hand(match, inputs)
    assert hand.scores == [-202, 808, 404, 808]

    rules = client.get(reverse("matches:match_rules", args=[match.edit_token])).content.decode()
    hand_page = client.get(reverse("matches:hand_detail", args=[match.edit_token, hand.number]))

    assert "Açana sabit" in rules and "808" in rules
    assert "808 (açtı, sabit, kafa)" in hand_page.content.decode()


def test_a_flat_kafa_saves_without_the_gosterge_though_an_opener_kept_a_fake_okey(client):
    """The fake okey of a loser on the flat amount is never counted, so the form does not ask
    for the gösterge (the okey's number) before saving."""
    match = flat_kafa_match()
    inputs = {
        "finisher": 0,
        "kafa": True,
        "players": [
            {"opened": "series"},
            {"opened": "series", "remaining": 30, "fake_okeys": 1},
            {"opened": "no"},
            {"opened": "no"},
        ],
    }

    response = client.post(
        reverse("matches:hand_create", args=[match.edit_token]), form_data(inputs)
    )

    assert response.status_code == 302
    assert match.hands.get().scores == [-202, 808, 404, 404]


def test_a_stored_ruleset_without_the_key_scores_as_before():
    rules = scoring.resolve_rules("cetele-standart")
    assert all("opened_flat" not in row for row in rules["finishes"].values())
