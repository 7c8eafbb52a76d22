"""What a 390×844 phone shows of the sheet and the hand form (issue 27, item 14): the "Toplam"
row in view however far the sheet scrolls, no row cut in half by it, a team sheet without a
sideways swipe, the indicator's colours on their chips."""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

import scoring
from cetele.models import Match
from tests.browser.matches.test_at_the_table import TYPICAL_HANDS
from tests.browser.sheet import enter_hand, wait_for_hand
from tests.factories import NAMES, make_match

pytestmark = pytest.mark.django_db(transaction=True)

COLOURS = {"multipliers": {"red": 2, "blue": 3, "black": 4, "yellow": 5}, "scope": "all"}

# Where each part of the scrolled sheet is, in the page's coordinates.
GEOMETRY = """
() => {
  const wrap = document.querySelector('.sheet-wrap');
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom};
  };
  return {
    wrap: box(wrap),
    scrolled: wrap.scrollTop,
    head: box(document.querySelector('table.sheet thead th')),
    foot: box(document.querySelector('table.sheet tfoot th')),
    rows: Array.from(document.querySelectorAll('table.sheet tbody tr')).map(box),
  };
}
"""

# True once the sheet has scrolled and stood still for three askings (600 ms), and either moved
# from `before` or had two seconds to (the last wheel may find it at the end already).
SETTLED = """
(before) => {
  const top = document.querySelector('.sheet-wrap').scrollTop;
  const state = window.ceteleScroll || (window.ceteleScroll = {asked: 0, still: 0, top: null});
  state.asked += 1;
  state.still = top === state.top ? state.still + 1 : 0;
  state.top = top;
  return top > 0 && state.still >= 3 && (top !== before || state.asked >= 10);
}
"""


def cut_rows(geometry: dict) -> list[dict]:
    """Rows of the sheet partly visible between the sticky names and the sticky "Toplam"."""
    top = geometry["head"]["bottom"]
    bottom = min(geometry["foot"]["top"], geometry["wrap"]["bottom"])
    slack = 1.5  # a border's width
    return [
        row
        for row in geometry["rows"]
        if row["bottom"] > top + slack
        and row["top"] < bottom - slack
        and (row["top"] < top - slack or row["bottom"] > bottom + slack)
    ]


@pytest.mark.parametrize("teams", [False, True], ids=["singles", "teams"])
def test_toplam_stays_in_view_and_cuts_no_row_on_a_12_hand_sheet(phone, teams):
    page, console = phone
    match = make_match(hands=12, planned_hands=13, teams=teams)
    match.rename_players(["Ayşegül", "Burak", "Canan", "Dilek"])
    page.goto(reverse("matches:match_detail", args=[match.edit_token]))
    expect(page.locator("table.sheet tbody tr")).to_have_count(12)
    wrap = page.locator(".sheet-wrap")
    wrap.scroll_into_view_if_needed()
    for steps in (1, 3, 40):  # a little, some more, to the end
        box = wrap.bounding_box()
        before = page.evaluate(
            "window.ceteleScroll = null; document.querySelector('.sheet-wrap').scrollTop"
        )
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.wheel(0, 70 * steps)
        # The wheel's smooth scroll and the snap settle: scrolled, and still over 200 ms (a
        # fixed wait was too short on a busy machine).
        page.wait_for_function(SETTLED, arg=before, polling=200, timeout=10_000)
        geometry = page.evaluate(GEOMETRY)
        assert geometry["scrolled"] > 0
        foot, frame = geometry["foot"], geometry["wrap"]
        assert frame["top"] <= foot["top"] and foot["bottom"] <= frame["bottom"] + 1, geometry
        assert cut_rows(geometry) == [], geometry
    assert console.errors == []


def test_a_four_player_team_sheet_needs_no_sideways_swipe(phone):
    page, console = phone
    match = make_match(hands=3, teams=True)
    match.rename_players(["Ayşegül", "Burak", "Canan", "Dilek"])
    page.goto(reverse("matches:match_detail", args=[match.edit_token]))
    expect(page.locator("table.sheet tbody tr")).to_have_count(3)
    widths = page.evaluate(
        """() => {
          const wrap = document.querySelector('.sheet-wrap');
          const page = document.documentElement.scrollWidth;
          return {wrap: wrap.scrollWidth, client: wrap.clientWidth, page: page};
        }"""
    )
    assert widths["wrap"] <= widths["client"] <= 390, widths
    assert widths["page"] <= 390, widths
    assert console.errors == []


def test_the_colour_chips_show_their_colour_and_its_name(phone):
    page, console = phone
    rules = scoring.resolve_rules("cetele-standart") | {"colours": COLOURS}
    match = Match.start(NAMES, teams=False, planned_hands=5, rules=rules)
    page.goto(reverse("matches:match_detail", args=[match.edit_token]))
    chips = page.locator(".colours label.colour")
    expect(chips).to_have_count(4)
    seen = {}
    for index in range(4):
        chip = chips.nth(index)
        seen[chip.inner_text().strip()] = chip.evaluate(
            "el => getComputedStyle(el).backgroundColor"
        )
    assert set(seen) == {"Kırmızı", "Mavi", "Siyah", "Sarı/yeşil"}  # the word, for everyone
    assert seen == {
        "Kırmızı": "rgb(198, 40, 40)",
        "Mavi": "rgb(21, 101, 192)",
        "Siyah": "rgb(33, 33, 33)",
        "Sarı/yeşil": "rgb(212, 160, 0)",
    }
    blue = chips.filter(has_text="Mavi")
    blue.click()  # chosen, it keeps its colour (and is ringed)
    expect(blue.locator("input")).to_be_checked()
    assert blue.evaluate("el => getComputedStyle(el).backgroundColor") == "rgb(21, 101, 192)"
    assert blue.evaluate("el => getComputedStyle(el).outlineStyle") == "solid"
    assert console.errors == []


def test_the_rovans_note_goes_away_after_the_next_save(phone):
    page, console = phone
    finished = make_match(hands=3, planned_hands=3)
    page.goto(reverse("matches:match_detail", args=[finished.edit_token]))
    page.get_by_role("button", name="Rövanş").click()
    page.wait_for_url("**/m/*/")
    note = page.locator(".messages")
    expect(note).to_contain_text("Rövanş başladı")

    enter_hand(page, NAMES, TYPICAL_HANDS["normal"])
    wait_for_hand(page, 2)

    expect(page.locator("#saved-note")).to_contain_text("1. el kaydedildi.")
    expect(page.get_by_text("Rövanş başladı")).to_have_count(0)
    assert console.errors == []


def test_the_two_phones_form_keeps_its_tasları_say_buttons(phone, second_phone):
    page, console = phone
    other, other_console = second_phone
    match = make_match(hands=0)
    page.goto(reverse("matches:match_detail", args=[match.edit_token]))
    other.goto(reverse("matches:match_detail", args=[match.edit_token]))
    expect(page.locator("#hand-form .count-open")).to_have_count(4)
    expect(page.locator("#hand-form .count-open").first).to_be_visible()

    enter_hand(other, NAMES, TYPICAL_HANDS["normal"])  # the other phone saves hand 1 first
    wait_for_hand(other, 2)
    enter_hand(page, NAMES, TYPICAL_HANDS["okey finish"])  # this one had typed hand 1 too

    expect(page.locator("#hand-form .taken")).to_contain_text("Kaydedilen el:")
    counters = page.locator("#hand-form .count-open")
    expect(counters).to_have_count(4)
    for seat in (0, 2, 3):  # the finisher's row (seat 1) holds no tiles: its button folds away
        expect(page.locator(f"#hand-form #seat-{seat} .count-open")).to_be_visible()
    counters.first.click()  # and it still counts
    expect(page.locator("[data-tile-counter]")).to_be_visible()
    assert console.errors == [] and other_console.errors == []


def test_a_corrections_geri_al_sits_in_its_own_note_and_undoes_it(phone):
    """The note opens the page, in view over a long sheet; its "Geri al" undoes the correction."""
    page, console = phone
    match = make_match(hands=12, planned_hands=13)
    hand = match.hands.order_by("number")[1]
    before = hand.inputs
    page.goto(reverse("matches:hand_detail", args=[match.edit_token, hand.number]))
    page.fill("#id_p3-remaining", "44")  # seat 3 had not opened: 44 left means they did
    page.get_by_role("button", name="Eli kaydet").click()
    page.wait_for_url(f"**{reverse('matches:match_detail', args=[match.edit_token])}*")

    note = page.locator("#correction-note")
    expect(note).to_contain_text("2. el düzeltildi.")
    expect(note).to_be_in_viewport()  # said where the page opens, not under the sheet
    expect(page.locator(f'table.sheet tr[data-hand="{hand.number}"]')).to_have_class(
        re.compile("just-saved")
    )
    hand.refresh_from_db()
    assert hand.inputs != before
    note.get_by_role("button", name="Geri al").click()

    expect(page.locator(".messages")).to_contain_text("2. el düzeltmeden önceki haline döndü.")
    hand.refresh_from_db()
    assert hand.inputs == before
    assert console.errors == []
