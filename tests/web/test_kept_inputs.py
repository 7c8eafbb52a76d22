"""Every kept drawing (cetele.live: the sheet, the open hand's rows, the next hand's empty fields
and chips) shows what its inputs are now: each input that can change has its drawing drawn
again, never one kept from before. One test per input found changing without a new key."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_match
from tests.web.test_kept_drawings import chips_of, edit

pytestmark = pytest.mark.django_db


def test_a_colour_tapped_alone_is_on_the_scorer_s_next_page(client):
    """A colour tapped before its number changes only the rows' version (the sheet says nothing
    of it yet); the scorer's page opened then starts its form from it, not from the gösterge of
    the kept sheet."""
    match = make_match(hands=2, planned_hands=5)
    edit(client, match)  # the sheet at this version, kept
    client.post(
        reverse("hand_create", args=[match.edit_token]),
        {"action": "indicator", "position": "3", "colour": "blue"},
    )

    shown = chips_of(edit(Client(), match))

    assert 'value="blue" id="id_colour_1" checked' in shown
