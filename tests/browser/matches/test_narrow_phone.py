"""On a phone from 320 px wide, in Turkish and in English: each seat row of the hand form
("Açmadı | Seri | Çift", the sum, ⋯) stays on one line, and, at 320 px, a four-player sheet fits
the screen, its last column whole (issue 29)."""

import os
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

import scoring
from cetele.models import Match
from tests.browser.sheet import start_match
from tests.factories import add_hand, sample_inputs

pytestmark = pytest.mark.django_db(transaction=True)

# Long names on purpose: the widest a phone at the table is likely to see.
NAMES = ["Ali Kemal", "Burcu", "Cengizhan", "İlknur"]
NARROW = {"width": 320, "height": 640}
SHOTS = Path(os.environ.get("CETELE_SCREENSHOTS", "/tmp/cetele-screenshots"))


def _narrow_page(browser, live_server):
    context = browser.new_context(
        base_url=live_server.url, viewport=NARROW, is_mobile=True, has_touch=True
    )
    return context, context.new_page()


def _speak(context, page, live_server, lang: str) -> None:
    context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page.goto(page.url)


def _tops(page, seat: int) -> dict[str, float]:
    """The top edge of each part of a seat's row, by part."""
    parts = {
        "no": f"#seat-{seat} .opened-no",
        "series": f"#seat-{seat} .opened-series",
        "pairs": f"#seat-{seat} .opened-pairs",
        "sum": f"#seat-{seat} .sum input",
        "more": f"#seat-{seat} details.more > summary",
    }
    boxes = {name: page.locator(selector).bounding_box() for name, selector in parts.items()}
    return {name: box["y"] + box["height"] / 2 for name, box in boxes.items()}


# Common phone widths: 320 (small), 360 (most Android phones), 375 and 390 (iPhones), 412.
WIDTHS = (320, 360, 375, 390, 412)


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_each_seat_row_fits_one_line_on_every_phone_width(browser, live_server, lang):
    context, page = _narrow_page(browser, live_server)
    try:
        start_match(page, NAMES)
        _speak(context, page, live_server, lang)
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 640})
            for seat in range(4):
                middles = _tops(page, seat)
                line = middles["no"]
                on_one_line = all(abs(middle - line) < 4 for middle in middles.values())
                assert on_one_line, f"{width} px, seat {seat}: {middles}"
                right = page.locator(f"#seat-{seat} details.more > summary").bounding_box()
                assert right["x"] + right["width"] <= width
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.locator("#seat-0").screenshot(path=SHOTS / f"seat-row-{width}-{lang}.png")
    finally:
        context.close()


def _big_hand(finisher: int) -> dict:
    """A hand whose losers score four figures: the widest numbers a sheet's column holds."""
    players = [{"opened": "pairs", "remaining": 99} for _ in range(4)]
    players[finisher] = {"opened": "series"}
    return {"finisher": finisher, "okey_finish": True, "okey_number": 13, "players": players}


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_a_four_player_sheet_fits_320_px_with_its_last_column_whole(browser, live_server, lang):
    match = Match.start(
        NAMES,
        teams=False,
        planned_hands=5,
        rules=scoring.resolve_rules("cetele-standart"),
        preset_slug="cetele-standart",
        base_rules=scoring.resolve_rules("cetele-standart"),
    )
    for number in range(4):
        add_hand(match, _big_hand(number % 4))
    context, page = _narrow_page(browser, live_server)
    try:
        context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
        page.goto(reverse("matches:match_detail", args=[match.edit_token]))
        wrap = page.locator(".sheet-wrap")
        SHOTS.mkdir(parents=True, exist_ok=True)
        wrap.screenshot(path=SHOTS / f"sheet-320-{lang}.png")
        sizes = wrap.evaluate("e => [e.scrollWidth, e.clientWidth]")
        last = page.locator("table.sheet thead th").last.bounding_box()
        box = wrap.bounding_box()

        assert sizes[0] <= sizes[1], sizes  # no sideways scrolling inside the sheet
        assert last["x"] + last["width"] <= box["x"] + box["width"]
        assert page.evaluate("document.documentElement.scrollWidth") <= 320
    finally:
        context.close()


# Every cell of the sheet whose content is wider than the cell: a number cut short ("−10" for
# "−101") is a wrong number on the phone.
CUT_CELLS = """wrap => [...wrap.querySelectorAll('th, td')]
  .filter(cell => cell.scrollWidth > cell.clientWidth)
  .map(cell => cell.textContent.trim())"""
# How far the names' row reaches over the first hand's row (px).
NAMES_OVER_ROWS = """wrap => wrap.querySelector('thead').getBoundingClientRect().bottom
  - wrap.querySelector('tbody tr').getBoundingClientRect().top"""
# Every score on the page whose text is drawn on more than one line ("−1" over "01").
BROKEN_NUMBERS = """() => [...document.querySelectorAll('td')].filter(cell => {
  const text = cell.textContent.trim();
  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  const tops = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const box of range.getClientRects()) if (box.width > 0) tops.push(box.top);
  }
  return /^[−-]?[0-9]+$/.test(text) && Math.max(...tops) - Math.min(...tops) > 4;
}).map(cell => cell.textContent.trim())"""


@pytest.mark.parametrize("teams", [False, True], ids=["singles", "teams"])
def test_no_number_of_the_sheet_is_cut_on_any_phone_width(browser, live_server, teams):
    """Four-figure scores (the widest a column holds) are whole at every width; where the
    columns cannot all fit, the sheet scrolls sideways in its frame and the page does not. With
    three-figure scores, the common case, every width from 360 px shows the whole sheet."""
    rules = scoring.resolve_rules("cetele-standart")
    common = Match.start(
        ["Ayşegül", "Mehmet Ali", "Cengizhan", "Dilek Nur"],
        teams=teams,
        planned_hands=13,
        rules=rules,
    )
    big = Match.start(NAMES, teams=teams, planned_hands=5, rules=rules)
    for number in range(12):
        add_hand(common, sample_inputs(finisher=number % 4, remaining=number * 9 % 100))
    for number in range(4):
        add_hand(big, _big_hand(number % 4))
    context, page = _narrow_page(browser, live_server)
    try:
        for match in (common, big):
            page.goto(reverse("matches:match_detail", args=[match.edit_token]))
            wrap = page.locator(".sheet-wrap")
            for width in WIDTHS:
                page.set_viewport_size({"width": width, "height": 640})
                assert wrap.evaluate(CUT_CELLS) == [], f"{width} px"
                assert page.evaluate(BROKEN_NUMBERS) == [], f"{width} px"
                # The names' row is as tall as drawn for: it covers no hand's row.
                assert wrap.evaluate(NAMES_OVER_ROWS) <= 1, f"{width} px"
                assert page.evaluate("document.documentElement.scrollWidth") <= width
                if match is common and width >= 360:
                    sizes = wrap.evaluate("e => [e.scrollWidth, e.clientWidth]")
                    assert sizes[0] <= sizes[1], f"{width} px: {sizes}"
            SHOTS.mkdir(parents=True, exist_ok=True)
            wrap.screenshot(path=SHOTS / f"sheet-{'teams' if teams else 'singles'}-{match.pk}.png")
    finally:
        context.close()


def test_no_score_of_the_history_breaks_over_two_lines(browser, live_server):
    """The history's before and after of each change ("Önce", "Sonra"), a team match's six
    columns of four-figure scores: every score on one line, at every phone width (a name may
    take two lines); the page never wider than the phone."""
    big = Match.start(
        NAMES, teams=True, planned_hands=5, rules=scoring.resolve_rules("cetele-standart")
    )
    for number in range(3):
        add_hand(big, _big_hand(number % 4))
    big.edit_hand(2, _big_hand(3), big.hands.get(number=2).version)
    context, page = _narrow_page(browser, live_server)
    try:
        page.goto(reverse("matches:match_history", args=[big.edit_token]))
        expect(page.locator(".history li")).to_have_count(4)
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 640})
            assert page.evaluate(BROKEN_NUMBERS) == [], f"{width} px"
            assert page.evaluate("document.documentElement.scrollWidth") <= width
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=SHOTS / "history-412.png")
    finally:
        context.close()
