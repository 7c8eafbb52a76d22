"""Screens that say nothing false, without a reload: what the hand form, the sheet and the rows'
list show always goes with what the page holds now."""

import re

import pytest
from playwright.sync_api import expect

from cetele.models import Match
from tests.browser.live.test_live_view import LIVE, install_clock, ticks
from tests.browser.seats.test_join_table import join_as, write_row
from tests.browser.sheet import start_match
from tests.factories import add_hand, make_match, sample_inputs

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ali", "Ayşe", "Can", "Deniz"]


@pytest.mark.parametrize("teams", [False, True], ids=["tek", "eşli"])
def test_an_error_leaves_with_the_sum_bitirdi_cleared(phone, teams):
    """Sums typed, then "Bitirdi" tapped on one of their rows: the form clears that row (and,
    with teams, the partner's, who writes 0), so no red "toplamı silin" may stay under them (the
    tap's preview was asked with the sums still there, and nothing asked again)."""
    page, console = phone
    start_match(page, NAMES, hands=5, teams=teams)
    for seat, remaining in ((0, "30"), (1, "7"), (2, "12")):
        page.fill(f"#id_p{seat}-remaining", remaining)
    expect(page.locator("#hand-preview")).to_contain_text("Kimin bitirdiğini")  # asked, answered
    page.wait_for_timeout(900)  # the typing's preview (delay 600 ms) has come back

    page.locator("#seat-0 .finish").click()

    expect(page.locator("#id_p0-remaining")).to_have_value("")
    expect(page.locator("#hand-preview")).to_contain_text("Ayşe")  # the hand's scores
    expect(page.locator("#hand-form")).not_to_contain_text("toplamı silin")
    assert console.errors == []


def sheet_links(page) -> list[tuple[str, str, list[str]]]:
    """Each row of the sheet on `page`: (its place, its hand number, every link in the row)."""
    return page.eval_on_selector_all(
        "#sheet table.sheet tbody tr",
        """rows => rows.map(row => [row.querySelector("th").innerText.trim(), row.dataset.hand,
            Array.from(row.querySelectorAll("a")).map(a => a.getAttribute("href"))])""",
    )


def expect_links_open_their_hands(page, match: Match, *, within: int = LIVE) -> None:
    """Every link on the sheet shown on `page` (`within` ms: a poll's time) opens the hand drawn
    beside it: its place and its scores on the hand's page are the row's."""
    hands = list(match.hands.order_by("number"))
    rows = page.locator("#sheet table.sheet tbody tr")
    expect(rows).to_have_count(len(hands), timeout=within)
    rows = sheet_links(page)
    assert len(rows) == len(hands)
    scores = page.eval_on_selector_all(
        "#sheet table.sheet tbody tr",
        "rows => rows.map(row => Array.from(row.querySelectorAll('td')).map(td => td.innerText))",
    )
    assert [row[1] for row in rows] == [str(hand.number) for hand in hands]
    sheet_url = page.url
    for (place, _, links), shown in zip(rows, scores, strict=True):
        for link in links:
            path, _, anchor = link.partition("#")
            assert path == links[0], links  # the place and every score open the same hand
            if anchor:  # a score's: its player's score on the hand's page is the one shown
                assert anchor == f"score-{links.index(link) - 1}", links
        response = page.goto(links[0])
        assert response.status == 200, links[0]
        expect(page.locator("h1")).to_contain_text(f"{place}. el")
        for seat, score in enumerate(shown):
            expect(page.locator(f"#score-{seat}")).to_contain_text(f": {score}")
    page.goto(sheet_url)


def test_every_link_on_the_sheet_opens_its_hand_after_a_deletion_an_undo_and_a_redo(
    phone, second_phone, third_phone
):
    """The middle hand deleted, its deletion undone, then redone: on the scorer's page, a view
    link's and a joined phone's (each as its poll brings the change), each row's links open the
    hand drawn beside it, at the place the row shows."""
    scorer, scorer_console = phone
    viewer, viewer_console = second_phone
    player, player_console = third_phone
    start_match(scorer, NAMES, hands=5)
    match = Match.objects.get()
    for remaining in (10, 20, 30):
        add_hand(match, sample_inputs(4, finisher=0, remaining=remaining))
    for page in (viewer, player):
        install_clock(page)
    viewer.goto(f"/v/{match.view_token}/")
    join_as(player, match, "Ayşe")
    scorer.goto(f"/m/{match.edit_token}/")

    def everyone_sees_it() -> None:
        expect_links_open_their_hands(scorer, match)
        for page in (viewer, player):
            ticks(page, 20)
            expect_links_open_their_hands(page, match)

    everyone_sees_it()
    scorer.locator("#sheet tbody tr").nth(1).locator("th a").click()
    scorer.get_by_role("link", name="Bu eli sil").click()
    scorer.get_by_role("button", name="Evet, sil").click()
    expect(scorer.locator(".message.success")).to_contain_text("El silindi")
    everyone_sees_it()
    scorer.locator("#match-actions").get_by_role("button", name="Geri al").click()
    expect(scorer.locator(".message.success")).to_contain_text("Silinen 2. el geri geldi")
    everyone_sees_it()
    scorer.get_by_role("button", name="Yinele").click()
    expect(scorer.locator(".message.success")).to_contain_text("2. el yeniden silindi")
    everyone_sees_it()
    assert scorer_console.errors == viewer_console.errors == player_console.errors == []


def test_back_to_the_sheet_after_a_deletion_elsewhere(phone):
    """A player taps a hand on the view link's sheet, meanwhile the scorer deletes the one
    before it, and the player goes back: the sheet they come back to links each row to its hand
    within one request's time (the browser shows the page it left from its cache on "back",
    with its old rows, without asking the server). (A joined phone's page is fetched again on
    "back": its cookies change as it is used.)"""
    page, console = phone
    match = make_match(hands=0, planned_hands=5)
    for remaining in (10, 20, 30):
        add_hand(match, sample_inputs(4, finisher=0, remaining=remaining))
    page.goto(f"/v/{match.view_token}/")
    page.locator("#sheet tbody tr").nth(2).locator("th a").click()
    expect(page.locator("h1")).to_contain_text("3. el")
    match.delete_hand(2)
    page.go_back()
    # Within the time of one request, not of the poll's schedule (8 s at the soonest).
    expect_links_open_their_hands(page, match, within=2_000)
    assert console.errors == []


@pytest.mark.parametrize("scorer_first", [True, False], ids=["scorer-first", "phone-first"])
def test_the_rows_list_never_says_settled_what_the_form_does_not_hold(
    phone, second_phone, scorer_first
):
    """Can's phone writes Seri · 21 while the scorer's form holds 20 for him (typed before the
    row came, or over the row once it was in): the scorer's list of the phones' rows says the
    form holds something else, and says it no more once the scorer takes the phone's."""
    scorer, scorer_console = phone
    can, _ = second_phone
    match = make_match(planned_hands=5)
    join_as(can, match, "Can")
    scorer.goto(f"/m/{match.edit_token}/")
    listed = scorer.locator('#table-rows li[data-seat="2"]')
    if scorer_first:
        scorer.fill("#id_p2-remaining", "20")
        write_row(can, tiles=(12, 9))
        expect(listed).to_contain_text("Seri · 21", timeout=LIVE)
        scorer.wait_for_timeout(300)  # the rows applied (htmx settles 20 ms after a swap)
    else:
        write_row(can, tiles=(12, 9))
        expect(scorer.locator("#id_p2-remaining")).to_have_value("21", timeout=LIVE)
        scorer.fill("#id_p2-remaining", "20")

    expect(listed).to_contain_text("Seri · 21")
    expect(listed).to_have_class(re.compile(r"\bdiffers\b"))
    expect(listed.locator(".mark")).not_to_have_text("✓")
    expect(listed).to_contain_text("sizde 20")
    scorer.locator("#seat-2 [data-phone-note]").get_by_role("button", name="Al").click()
    expect(scorer.locator("#id_p2-remaining")).to_have_value("21")
    expect(listed).not_to_have_class(re.compile(r"\bdiffers\b"))
    expect(listed.locator(".mark")).to_have_text("✓")
    expect(listed).not_to_contain_text("sizde")
    assert scorer_console.errors == []


def test_the_rows_list_says_the_form_holds_no_tiles_for_the_finisher_s_partner(phone, second_phone):
    """With teams, Can (Ali's partner) writes Seri · 21, then the scorer taps "Ali bitirdi": the
    form holds 0 for Can, and the list says so beside Can's row instead of a ✓."""
    scorer, scorer_console = phone
    can, _ = second_phone
    match = make_match(teams=True, preset="om-klasik", planned_hands=5)
    join_as(can, match, "Can")
    scorer.goto(f"/m/{match.edit_token}/")
    write_row(can, tiles=(12, 9))
    expect(scorer.locator("#id_p2-remaining")).to_have_value("21", timeout=LIVE)
    listed = scorer.locator('#table-rows li[data-seat="2"]')
    expect(listed.locator(".mark")).to_have_text("✓")

    scorer.locator("#seat-0 .finish").click()

    expect(listed).to_contain_text("sizde eşi bitirdi · 0")
    expect(listed.locator(".mark")).not_to_have_text("✓")
    scorer.locator("#seat-1 .finish").click()  # Ayşe finished after all: Can's 21 is back
    expect(scorer.locator("#id_p2-remaining")).to_have_value("21")
    expect(listed.locator(".mark")).to_have_text("✓")
    expect(listed).not_to_contain_text("sizde")
    assert scorer_console.errors == []
