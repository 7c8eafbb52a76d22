"""What a phone's page shows after a change, without a reload: the tea card and the bill follow
every change at once on the phone that made it, and at the next poll on the others; links on
the sheet open the hand drawn beside them."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from cetele.models import Match
from tests.factories import make_match
from tests.web.live.test_pages_never_stale import sheet_of
from tests.web.tea.test_tea_tally import ALI, CAY, HTMX, LOSER_DENIZ, drinks, finished_match, tap

pytestmark = pytest.mark.django_db


def bill_in(html: str) -> str:
    """The bill in the sheet's summary (templates/cetele/tea/_bill.html)."""
    start = html.index("data-tea-bill")
    return html[start : html.index("</div>", start)]


def scorer_page(match: Match) -> str:
    return "http://testserver" + reverse("matches:match_detail", args=[match.edit_token])


def test_switching_the_tea_rule_after_the_match_redraws_the_bill_at_once(client):
    match = finished_match(LOSER_DENIZ)
    drinks(client, match, [(ALI, CAY, 1)])
    client.get(reverse("matches:match_detail", args=[match.edit_token]))

    response = client.post(
        reverse("tea:match_tea_rule", args=[match.edit_token]),
        {"rule": "own"},
        headers={**HTMX, "HX-Current-URL": scorer_page(match)},
    )

    body = response.content.decode()
    assert "Çay defteri: Herkes kendi öder." in body  # the card's sentence
    # The sheet comes along, out of band, with the bill by the new rule.
    assert re.search(r'<section id="sheet"[^>]*hx-swap-oob="true"', body)
    bill = bill_in(sheet_of(body))
    assert "Herkes kendi içtiğini öder." in bill and "Kaybeden öder" not in bill


def tea_count(html: str, seat: int, item: int) -> str:
    """The count the scorer's tea card shows in one cell."""
    cell = html[html.index(f'data-tea-cell="{seat}-{item}"') :]
    return re.search(r"data-tea-count>(\d+)<", cell).group(1)


@pytest.mark.parametrize("finished", [False, True])
def test_another_phone_s_tea_tap_reaches_the_scorer_s_card_at_its_next_poll(client, finished):
    match = finished_match(LOSER_DENIZ) if finished else make_match(planned_hands=5)
    shown = Match.objects.get(pk=match.pk).version
    client.get(reverse("matches:match_detail", args=[match.edit_token]))
    card = client.get(reverse("tea:match_drink", args=[match.edit_token]), headers=HTMX)
    assert tea_count(card.content.decode(), ALI, CAY) == "0"

    other = Client()  # the same edit link on another phone at the table
    other.get(reverse("matches:match_detail", args=[match.edit_token]))
    tap(other, match, ALI, CAY, **HTMX)

    poll = reverse("sharing:match_poll", args=[match.edit_token]) + f"?v={shown}"
    answer = client.get(poll, headers=HTMX).content.decode()
    assert re.search(r'<section id="tea"[^>]*hx-swap-oob="true"', answer)
    assert tea_count(answer, ALI, CAY) == "1"
