"""The okey and the dealer on every phone: a joined phone taps the gösterge, and the scorer's
form, the scorer's sheet and a viewer's sheet show the okey; the saved hand scores with that
okey's number and riziko, as the engine does."""

import pytest
from playwright.sync_api import expect

import scoring
from cetele.live.schedule import ROWS_EVERY_ALONE, ROWS_EVERY_PLAYER
from cetele.models import Match
from tests.browser.sheet import enter_hand, sheet_shows
from tests.browser.test_live_view import install_clock, ticks

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ali", "Ayşe", "Can", "Deniz"]
# ms: a page asks for the rows every 8 s at the most (cetele.live.schedule), then for the sheet
LIVE = (max(ROWS_EVERY_ALONE, ROWS_EVERY_PLAYER) + 2) * 1_000
# A viewer's sheet asks every 16 s right after a change (cetele.live.schedule): the viewer's
# page jumps ahead that far on its own clock (ticks) and then has this long for the poll.
VIEWER = 10_000
RULES = {
    "riziko": {"multiplier": 2},
    "colours": {"multipliers": {"red": 1, "blue": 4, "black": 3, "yellow": 2}, "scope": "finish"},
}


@pytest.fixture
def third_phone(browser, live_server):
    from tests.browser.conftest import open_phone

    yield from open_phone(browser, live_server)


def test_a_joined_phone_taps_the_gosterge_and_every_phone_shows_the_okey(
    phone, second_phone, third_phone
):
    scorer, scorer_console = phone
    player, player_console = second_phone
    viewer, viewer_console = third_phone
    rules = scoring.resolve_rules({"preset": "cetele-standart", "override": RULES})
    match = Match.start(NAMES, teams=False, planned_hands=3, rules=rules, first_dealer=1)
    scorer.goto(f"/m/{match.edit_token}/")
    install_clock(viewer)
    viewer.goto(f"/v/{match.view_token}/")
    expect(viewer.locator("[data-deal]")).to_have_text("1. el · Dağıtan: Ayşe")
    expect(scorer.locator("#indicator-picker .dealer")).to_have_text("Dağıtan: Ayşe")

    player.goto(f"/k/{match.join_token}/")
    player.locator(".seat-choices label", has_text="Can").click()
    player.get_by_role("button", name="Bu benim").click()
    section = player.locator("#indicator")
    # "Sahte okey", then the tile turned up in its place: siyah 4, whose next is the okey.
    section.get_by_text("Sahte okey").click()
    section.locator(".colours").get_by_text("Siyah").click()
    section.locator(".numbers").get_by_text("4", exact=True).click()
    expect(section.locator(".okey-words")).to_contain_text(
        "Gösterge: sahte okey (riziko) · Okey: siyah 5", timeout=LIVE
    )

    okey = "Gösterge: sahte okey (riziko) · Okey: siyah 5"
    expect(scorer.locator("[data-deal]")).to_contain_text(okey, timeout=LIVE)
    picker = scorer.locator("#indicator-picker")
    expect(picker.locator('input[name="indicator"][value="4"]')).to_be_checked(timeout=LIVE)
    expect(picker.locator('input[name="colour"][value="black"]')).to_be_checked()
    expect(picker.locator('input[name="riziko"]')).to_be_checked()
    expect(scorer.locator("#okey-words")).to_contain_text("Okey: siyah 5", timeout=LIVE)
    ticks(viewer, 16)
    expect(viewer.locator("[data-deal]")).to_contain_text(okey, timeout=VIEWER)

    # The scorer types the hand, not the gösterge: Ayşe keeps a fake okey, worth the okey's 5.
    inputs = {
        "finisher": 0,
        "okey_finish": False,
        "kafa": False,
        "players": [
            {"opened": "series"},
            {"opened": "series", "remaining": 12, "fake_okeys": 1},
            {"opened": "no"},
            {"opened": "no"},
        ],
    }
    taps = enter_hand(scorer, NAMES, inputs)
    sheet_shows(scorer, 1)
    print(f"\nscorer's taps for the hand, the gösterge set by a joined phone: {taps}")

    hand = match.hands.get()
    expected_inputs = {**inputs, "okey_number": 5, "colour": "black", "riziko": True}
    expected = scoring.score_json(match.scoring_request(expected_inputs))
    assert (hand.inputs["okey_number"], hand.inputs["colour"], hand.inputs["riziko"]) == (
        5,
        "black",
        True,
    )
    assert hand.result["scores"] == expected["scores"]
    # Ali's finish row × 2 (riziko) × 3 (siyah); Ayşe's tiles (12 + the fake okey's 5) likewise,
    # and the 101 for the okey left as it is (a flat amount).
    assert expected["scores"][:2] == [-101 * 6, 17 * 6 + 101]
    ticks(viewer, 16)
    expect(viewer.locator("table.sheet tbody tr")).to_have_count(1, timeout=VIEWER)
    cells = viewer.locator("table.sheet tbody tr").first.locator("td")
    assert [cells.nth(seat).inner_text() for seat in range(2)] == ["−606", "203"]
    # The next hand: the deal has passed on, and its gösterge is not yet turned.
    expect(viewer.locator("[data-deal]")).to_have_text("2. el · Dağıtan: Can")
    expect(player.locator("#indicator .okey-words")).to_contain_text(
        "Gösterge henüz yazılmadı", timeout=LIVE
    )
    for console in (scorer_console, player_console, viewer_console):
        assert console.errors == []
