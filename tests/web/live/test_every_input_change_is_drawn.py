"""Every kept drawing (cetele.live: the sheet, the open hand's rows, the next hand's empty fields
and chips) shows what its inputs are now: each input that can change has its drawing drawn
again, never one kept from before. One test per input found changing without a new key."""

import pytest
from django.test import Client
from django.urls import reverse

from cetele.tables.season import rematch, table_from_match
from cetele.tea.models import TeaRule
from cetele.tea.tally import change_drinks, set_rule
from tests.factories import make_match
from tests.web.live.test_pages_never_stale import chips_of, edit, view

pytestmark = pytest.mark.django_db


def test_a_colour_tapped_alone_is_on_the_scorer_s_next_page(client):
    """A colour tapped before its number changes only the rows' version (the sheet says nothing
    of it yet); the scorer's page opened then starts its form from it, not from the gösterge of
    the kept sheet."""
    match = make_match(hands=2, planned_hands=5)
    edit(client, match)  # the sheet at this version, kept
    client.post(
        reverse("matches:hand_create", args=[match.edit_token]),
        {"action": "indicator", "position": "3", "colour": "blue"},
    )

    shown = chips_of(edit(Client(), match))

    assert 'value="blue" id="id_colour_1" checked' in shown


def test_a_match_whose_rematch_makes_a_table_shows_the_table_s_tea_rule_at_once(client):
    """ "Masa yap" on a rematch takes the match before it to the new table too, whose tea rule is
    the rematch's: that match's bill is then the table's ("Kaybeden öder"), on a sheet kept
    from before as on a new one."""
    first = make_match(hands=2, planned_hands=2)
    change_drinks(first, 0, 0, None, add=True)
    second = rematch(first)  # "Kaybeden öder", as the first was then
    set_rule(first, TeaRule.OWN)  # the first match's bill switched afterwards
    assert "Herkes kendi" in bill_of(view(client, first))  # kept at this version

    table_from_match(second, "Cumartesi")

    assert "Kaybeden öder" in bill_of(view(Client(), first))


def bill_of(html: str) -> str:
    start = html.index("data-tea-bill")
    return html[start : html.index("</h3>", start)]
