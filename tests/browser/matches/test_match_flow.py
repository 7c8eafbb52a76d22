"""A whole match on a phone: start, three hands (a penalty, an okey finish), correct, delete."""

import re

import pytest
from playwright.sync_api import expect

import scoring
from cetele.models import Hand, Match
from scoring.labels import signed
from tests.browser.sheet import enter_hand, start_match, totals, wait_for_hand

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ali", "Ayşe", "Can", "Deniz"]
HANDS = [
    {  # an okey finish with a pair opener over 100
        "finisher": 0,
        "okey_finish": True,
        "players": [
            {"opened": "series"},
            {"opened": "pairs", "remaining": 107},
            {"opened": "series", "remaining": 10},
            {"opened": "no"},
        ],
    },
    {  # a penalty: an işlek tile taken by the next player
        "finisher": 1,
        "players": [
            {"opened": "series", "remaining": 33},
            {"opened": "series"},
            {
                "opened": "series",
                "remaining": 12,
                "penalties": [{"kind": "islek_discard", "taken": True, "tile": 8}],
            },
            {"opened": "no"},
        ],
    },
    {  # nobody finished
        "finisher": None,
        "players": [
            {"opened": "series", "remaining": 5},
            {"opened": "no"},
            {"opened": "series", "remaining": 8},
            {"opened": "no"},
        ],
    },
]


def engine_totals(match: Match) -> list[int]:
    hands = [
        scoring.score_json({"rules": match.rules, "teams": False, "hand": h.inputs})["scores"]
        for h in Hand.objects.filter(match=match).order_by("number")
    ]
    return [sum(column) for column in zip(*hands, strict=True)]


def test_a_match_played_through_on_a_phone(phone):
    page, console = phone
    start_match(page, NAMES, hands=5)
    match = Match.objects.get()

    for number, inputs in enumerate(HANDS, start=1):
        enter_hand(page, NAMES, inputs)
        wait_for_hand(page, number + 1)

    assert Hand.objects.count() == 3
    assert totals(page) == [signed(total) for total in engine_totals(match)]
    assert "529" in page.locator("table.sheet tbody").inner_text()

    # Tap a score: see how it was made, and correct the hand.
    page.locator("table.sheet tbody tr").nth(1).locator("td").nth(0).click()
    page.wait_for_url(re.compile(r"/el/2/"))
    assert "33" in page.locator("#score-0").inner_text()
    page.fill("#id_p0-remaining", "43")
    page.wait_for_selector("#hand-preview:has-text('Ali 43')")
    page.get_by_role("button", name="Eli kaydet").click()
    page.wait_for_url(re.compile(r"/m/[^/]+/\?duzeltildi=\d+$"))  # the sheet, naming the change
    expect(page.locator("#correction-note")).to_contain_text("2. el düzeltildi.")
    assert totals(page) == [signed(total) for total in engine_totals(match)]

    # Delete the third hand after the confirmation, then undo the deletion.
    page.locator("table.sheet tbody tr").nth(2).locator("th a").click()
    page.get_by_role("link", name="Bu eli sil").click()
    page.get_by_role("button", name="Evet, sil").click()
    page.wait_for_url(re.compile(r"/m/[^/]+/$"))
    assert page.locator("table.sheet tbody tr").count() == 2
    assert totals(page) == [signed(total) for total in engine_totals(match)]
    page.get_by_role("button", name=re.compile("Geri al")).click()
    assert page.locator("table.sheet tbody tr").count() == 3

    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert console.errors == []


def test_an_invalid_hand_shows_the_message_and_keeps_the_input(phone):
    page, console = phone
    start_match(page, NAMES, hands=3)
    inputs = {
        "finisher": 0,
        "players": [
            {"opened": "series"},
            {"opened": "series", "remaining": 999},
            {"opened": "no"},
            {"opened": "no"},
        ],
    }

    enter_hand(page, NAMES, inputs)

    page.wait_for_selector("#seat-1 .errorlist")
    assert page.input_value("#id_p1-remaining") == "999"
    assert Hand.objects.count() == 0
    assert console.errors == []


def test_a_five_hand_match_ends_with_its_winner(phone):
    page, console = phone
    start_match(page, NAMES, hands=5)

    for number in range(5):
        finisher = number % 4
        inputs = {
            "finisher": finisher,
            "players": [
                {"opened": "series"} if seat == finisher else {"opened": "series", "remaining": 10}
                for seat in range(4)
            ],
        }
        enter_hand(page, NAMES, inputs)
        page.wait_for_selector(f"table.sheet tbody tr:nth-child({number + 1})")

    page.wait_for_selector("text=Maç bitti. Kazanan:")
    assert "Ali" in page.locator(".winner").inner_text()
    assert page.locator("#hand-form button[value=save]").count() == 0
    assert console.errors == []


def test_typing_shows_the_engines_message_beside_the_field_and_clears_it(phone):
    page, console = phone
    start_match(page, NAMES, hands=3)
    page.locator("#seat-0 .finish").click()

    page.fill("#id_p1-remaining", "300")  # more than 21 tiles can hold
    page.wait_for_selector("#id_p1-remaining-errors .errorlist")
    assert "21 taşla en fazla 255 olur" in page.inner_text("#id_p1-remaining-errors")
    page.fill("#id_p1-remaining", "30")

    # The hand now scores: one element out of band empties every field's errors.
    page.wait_for_selector("#id_p1-remaining-errors .errorlist", state="detached")
    page.wait_for_selector("#hand-preview details")
    assert page.locator("#hand-form .field-errors .errorlist").count() == 0
    assert page.input_value("#id_p1-remaining") == "30"
    assert Hand.objects.count() == 0
    assert console.errors == []


def test_a_hand_typed_but_not_saved_outlives_a_reload_until_it_is_saved(phone):
    """A pull to refresh at the table must not cost the scorer the hand being typed: what was
    tapped and typed comes back, with its preview; once saved, the next form starts empty."""
    page, console = phone
    start_match(page, NAMES, hands=3)
    page.locator("#seat-0 .finish").click()
    page.fill("#id_p2-remaining", "27")
    page.locator("#seat-2 .opened-pairs").click()
    page.wait_for_selector("#hand-preview details")

    page.reload()

    expect(page.locator("#hand-form input[name=finisher][value='0']")).to_be_checked()
    expect(page.locator("#hand-form input[name=p2-opened][value=pairs]")).to_be_checked()
    expect(page.locator("#id_p2-remaining")).to_have_value("27")
    expect(page.locator("#hand-preview details")).to_contain_text("Can")
    page.get_by_role("button", name="Eli kaydet").click()
    wait_for_hand(page, 2)
    can = Hand.objects.get().inputs["players"][2]
    assert (can["opened"], can["remaining"]) == ("pairs", 27)

    page.reload()

    expect(page.locator("#entry-title")).to_contain_text("2. el")
    expect(page.locator("#id_p2-remaining")).to_have_value("")
    expect(page.locator("#hand-form input[name=finisher]:checked")).to_have_count(0)
    assert console.errors == []
