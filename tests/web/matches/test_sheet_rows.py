"""The sheet's rows (templates/cetele/matches/_sheet.html): each row's links are the URLs Django
reverses, scores are the engine's text, and nothing is skipped."""

import re

import pytest
from django.urls import reverse

from cetele.models import Match
from scoring.labels import signed
from tests.factories import add_hand, make_match, sample_inputs

pytestmark = pytest.mark.django_db


def sheet_rows(html: str) -> list[list[tuple[str, str]]]:
    """Per row of the sheet's body: (href, text) of each link."""
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [re.findall(r'<a href="([^"]+)">([^<]*)</a>', row) for row in body.split("</tr>")[:-1]]


@pytest.mark.parametrize(
    ("route", "hand_route", "field"),
    [
        ("matches:match_detail", "matches:hand_detail", "edit_token"),
        ("sharing:view_match", "sharing:view_hand", "view_token"),
    ],
)
def test_every_link_and_score_of_the_sheet_is_what_reverse_and_the_engine_give(
    client, route, hand_route, field
):
    match = make_match(hands=0, planned_hands=20)
    for finisher in (0, 1, 2, 3, 1):
        add_hand(match, sample_inputs(finisher=finisher, remaining=40 + finisher))
    match.delete_hand(match.hands.order_by("number")[1].number)  # numbers no longer positions
    token = getattr(match, field)

    rows = sheet_rows(client.get(reverse(route, args=[token])).content.decode())

    hands = list(match.hands.order_by("number"))
    assert len(rows) == len(hands) == 4
    for position, (row, hand) in enumerate(zip(rows, hands, strict=True), start=1):
        url = reverse(hand_route, args=[token, hand.number])
        assert row[0] == (url, str(position))
        # Printed as the breakdowns print them: "−101", the minus sign, not a hyphen.
        assert row[1:] == [(f"{url}#score-{seat}", signed(s)) for seat, s in enumerate(hand.scores)]


def test_team_columns_show_each_side_s_score(client):
    match = make_match(hands=0, teams=True)
    add_hand(match, sample_inputs(finisher=1, remaining=33))
    html = client.get(reverse("sharing:view_match", args=[match.view_token])).content.decode()
    row = html.split("<tbody>", 1)[1].split("</tr>", 1)[0]
    teams = re.findall(r'<td class="team">([^<]*)</td>', row)
    scores = match.hands.get().scores
    assert teams == [signed(scores[0] + scores[2]), signed(scores[1] + scores[3])]


def test_a_finished_match_page_has_no_hand_form_and_says_so(client):
    match = make_match(hands=0, planned_hands=1)
    add_hand(match, sample_inputs(finisher=0, remaining=12))
    assert Match.objects.get().hands.count() == 1
    html = client.get(reverse("matches:match_detail", args=[match.edit_token])).content.decode()
    assert "Maç bitti" in html
    assert 'name="request_token"' not in html
