"""The okey and the dealer on every phone: a joined phone taps the gösterge, and the scorer's
form, the scorer's sheet and a viewer's sheet show the okey; the saved hand scores with that
okey's number and riziko, as the engine does."""

import re

import pytest
from playwright.sync_api import expect

import scoring
from cetele.models import Match
from tests.browser.live.test_live_view import install_clock, ticks
from tests.browser.sheet import enter_hand, sheet_shows, wait_for_hand

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ali", "Ayşe", "Can", "Deniz"]
# ms: a page asks for the rows every 4 s (cetele.live.schedule, sooner in the tests), then for
# the sheet: room for a loaded machine
LIVE = 18_000
# A viewer's sheet asks every 16 s right after a change (cetele.live.schedule): the viewer's
# page jumps ahead that far on its own clock (ticks) and then has this long for the poll.
VIEWER = 10_000
RULES = {
    "riziko": {"multiplier": 2},
    "colours": {"multipliers": {"red": 1, "blue": 4, "black": 3, "yellow": 2}, "scope": "finish"},
}


@pytest.fixture
def third_phone(browser, live_server, request):
    from tests.browser.conftest import open_phone

    yield from open_phone(browser, live_server, request)


@pytest.mark.races
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
        "Gösterge henüz gösterilmedi", timeout=LIVE
    )
    for console in (scorer_console, player_console, viewer_console):
        assert console.errors == []


def test_every_tap_of_the_scorer_on_the_gosterge_is_kept_whatever_the_form_asks_between(phone):
    """The scorer taps the colour, then the number, on a slow café Wi-Fi: the colour's request is
    still on its way when the number is tapped and a sum typed. The number's tap may not wait in
    the form's queue, where the typed sum's preview would take its place: the number would never
    be kept for the other phones, and the rows' poll would then bring back the colour alone and
    take the number off the scorer's form."""
    import contextlib

    from playwright.sync_api import Error

    from cetele.deal.models import OpenIndicator

    page, console = phone
    rules = scoring.resolve_rules({"preset": "cetele-standart", "override": RULES})
    match = Match.start(NAMES, teams=False, planned_hands=3, rules=rules)
    held = []

    def hold_the_colour(route):
        if "action=indicator" in (route.request.post_data or "") and not held:
            held.append(route)  # the answer to the colour's tap is slow to come
        else:
            route.continue_()

    page.route("**/el/", hold_the_colour)
    page.goto(f"/m/{match.edit_token}/")
    picker = page.locator("#indicator-picker")
    picker.locator(".colours").get_by_text("Sarı/yeşil").click()
    picker.locator(".numbers").get_by_text("12", exact=True).click()
    page.fill("#id_p1-remaining", "34")  # its preview asks 600 ms after the typing stops
    page.wait_for_timeout(900)
    for route in held:
        with contextlib.suppress(Error):
            route.continue_()

    expect(page.locator("#okey-words")).to_contain_text("Okey: sarı/yeşil 13", timeout=LIVE)
    expect(picker.locator('input[name="indicator"][value="12"]')).to_be_checked()
    # Kept for every phone; the rows' poll that comes next leaves the scorer's taps as they are.
    stored_soon(
        page, OpenIndicator.objects.filter(match=match, colour="yellow", number=12, seat=None)
    )
    page.wait_for_timeout(LIVE)
    expect(picker.locator('input[name="indicator"][value="12"]')).to_be_checked()
    expect(picker.locator('input[name="colour"][value="yellow"]')).to_be_checked()
    assert console.errors == []


@pytest.fixture
def phone_without_worker(browser, live_server):
    """A phone whose requests the test can hold: the service worker would answer them itself,
    out of the page's routes."""
    from tests.browser.conftest import open_phone

    yield from open_phone(browser, live_server, service_workers="block")


def test_rows_asked_for_before_the_scorers_last_gosterge_tap_was_kept_do_not_undo_it(
    phone_without_worker,
):
    """The rows' poll brings the gösterge kept for every phone. One asked for after the colour
    was kept but answered after the number's tap (a slow connection) holds the colour alone:
    the scorer's form keeps the number it was just given."""
    from cetele.deal.models import OpenIndicator

    page, console = phone_without_worker
    rules = scoring.resolve_rules({"preset": "cetele-standart", "override": RULES})
    match = Match.start(NAMES, teams=False, planned_hands=3, rules=rules)
    held, armed, drawn = [], [], []

    def rows(route):
        if not drawn:
            drawn.append(True)  # the page's rows section, drawn after it loads
            route.continue_()
        elif not armed:
            route.fulfill(status=204)  # "nothing changed", for now: the form keeps the taps
        elif not held:
            held.append((route, route.fetch()))  # answered now, delivered later
        else:
            route.continue_()

    page.route(lambda url: "/satirlar/" in url, rows)
    page.goto(f"/m/{match.edit_token}/")
    picker = page.locator("#indicator-picker")
    picker.locator(".colours").get_by_text("Sarı/yeşil").click()
    kept = OpenIndicator.objects.filter(match=match, colour="yellow")
    stored_soon(page, kept.filter(number=None))
    armed.append(True)
    for _ in range(LIVE // 100):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the rows were not asked for"

    picker.locator(".numbers").get_by_text("12", exact=True).click()
    stored_soon(page, kept.filter(number=12))
    expect(picker).not_to_have_class(re.compile("htmx-request"))
    # Whatever changes the form from now on: does it still hold the number?
    page.evaluate("""() => { window.heldTwelve = [];
      document.addEventListener("change", () => window.heldTwelve.push(
        !!document.querySelector('#indicator-picker input[name="indicator"][value="12"]:checked')
      ), true); }""")
    route, answer = held[0]
    route.fulfill(response=answer)  # the rows as they were before the number's tap
    page.wait_for_timeout(1_000)
    assert False not in page.evaluate("window.heldTwelve")
    expect(picker.locator('input[name="indicator"][value="12"]')).to_be_checked()
    expect(page.locator("#okey-words")).to_contain_text("Okey: sarı/yeşil 13")
    assert console.errors == []


def stored_soon(page, kept, seconds: int = 10) -> None:
    for _ in range(seconds * 10):
        if kept.exists():
            return
        page.wait_for_timeout(100)
    raise AssertionError(list(kept.model.objects.values("colour", "number", "seat")))


def test_a_preview_asked_before_the_gosterge_was_tapped_does_not_show_over_the_tap(phone):
    """The gösterge's taps go in their own queue, beside the typing's previews: a preview asked
    before the tap whose answer comes after it (a slow connection) would show the hand without
    the gösterge, while the chips show it."""
    import contextlib

    from playwright.sync_api import Error

    page, console = phone
    rules = scoring.resolve_rules({"preset": "cetele-standart", "override": RULES})
    match = Match.start(NAMES, teams=False, planned_hands=3, rules=rules)
    held = []

    def hold_the_typing(route):
        if "action=indicator" not in (route.request.post_data or "") and not held:
            held.append(route)  # the typing's preview is slow to come
        else:
            route.continue_()

    page.route("**/el/", hold_the_typing)
    page.goto(f"/m/{match.edit_token}/")
    page.fill("#id_p1-remaining", "34")
    for _ in range(50):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the typing asked for no preview"
    picker = page.locator("#indicator-picker")
    picker.locator(".colours").get_by_text("Sarı/yeşil").click()
    picker.locator(".numbers").get_by_text("12", exact=True).click()
    words = page.locator("#okey-words")
    expect(words).to_contain_text("Okey: sarı/yeşil 13", timeout=LIVE)
    # What the okey's words say from now on, each time they are drawn.
    page.evaluate("""() => { window.saidOkey = [];
      const words = () => document.getElementById("okey-words").textContent;
      new MutationObserver(() => window.saidOkey.push(words())).observe(
        document.getElementById("indicator-picker"), {childList: true, subtree: true}); }""")
    with contextlib.suppress(Error):
        held[0].continue_()
    page.wait_for_timeout(1_000)
    expect(words).to_contain_text("Okey: sarı/yeşil 13")
    said = page.evaluate("window.saidOkey")
    assert all("Okey: sarı/yeşil 13" in words for words in said), said
    assert console.errors == []


def test_the_first_dealers_choice_leaves_the_page_with_the_first_hands_save(phone):
    """The first dealer ("Dağıtan") is chosen until the first hand is saved; the save's answer
    (no page load) takes the choice away: the page never shows a first dealer beside the next
    hand's."""
    scorer, console = phone
    rules = scoring.resolve_rules({"preset": "cetele-standart"})
    match = Match.start(NAMES, teams=False, planned_hands=3, rules=rules)
    scorer.goto(f"/m/{match.edit_token}/")
    choice = scorer.locator(".dealer-form")
    choice.locator("select").select_option(label="Can")
    choice.get_by_role("button", name="Değiştir").click()
    dealer = scorer.locator("#indicator-picker .dealer")
    expect(dealer).to_have_text("Dağıtan: Can")

    enter_hand(
        scorer,
        NAMES,
        {
            "finisher": 0,
            "players": [
                {"opened": "series"},
                {"opened": "series", "remaining": 34},
                {"opened": "series", "remaining": 12},
                {"opened": "no"},
            ],
        },
    )
    wait_for_hand(scorer, 2)

    expect(dealer).to_have_text("Dağıtan: Deniz")  # the next player deals the second hand
    expect(scorer.locator(".dealer-form")).to_have_count(0)
    expect(scorer.get_by_text("Dağıtan:", exact=True)).to_have_count(0)  # the choice's label
    assert console.errors == []
