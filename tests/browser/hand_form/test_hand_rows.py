"""The rows of the hand form as a player meets them: nothing to type where nothing counts, and
no error before anything was done."""

from playwright.sync_api import expect

from tests.browser.matches.test_at_the_table import NAMES
from tests.browser.sheet import start_match


def test_the_finishers_partner_row_collapses_with_teams(phone):
    page, console = phone
    start_match(page, NAMES, teams=True)

    page.locator("#seat-0 .finish").click()  # Ali finishes; Can (seat 3) is his partner

    partner = page.locator("#seat-2")
    expect(partner.locator(".partner-note")).to_have_text("eşi bitirdi · 0")
    expect(partner.locator(".sum input")).to_be_hidden()
    expect(partner.locator("details.more > summary")).to_be_visible()  # penalties still count
    for opponent in ("#seat-1", "#seat-3"):
        expect(page.locator(f"{opponent} .sum input")).to_be_visible()
        expect(page.locator(f"{opponent} .partner-note")).to_be_hidden()
    page.locator("#seat-1 .finish").click()  # the finisher changes: so does the partner
    expect(page.locator("#seat-3 .partner-note")).to_be_visible()
    expect(partner.locator(".sum input")).to_be_visible()
    assert console.errors == []


def test_the_partner_row_stays_open_in_singles(phone):
    page, _ = phone
    start_match(page, NAMES)

    page.locator("#seat-0 .finish").click()

    expect(page.locator("#seat-2 .sum input")).to_be_visible()
    expect(page.locator("#seat-2 .partner-note")).to_be_hidden()


def test_a_new_penalty_row_shows_no_error_before_anything_is_chosen(phone):
    page, console = phone
    start_match(page, NAMES)
    row = page.locator("#seat-1")
    row.locator("details.more > summary").click()

    row.get_by_role("button", name="+ Ceza ekle").click()

    penalty = page.locator("#seat-1 .penalty-row")
    expect(penalty).to_have_count(1)
    expect(penalty.locator(".errorlist")).to_have_count(0)
    expect(page.locator("#hand-form [role=alert]")).to_have_count(0)
    assert console.errors == []


def test_a_sum_typed_at_a_phones_pace_asks_for_one_preview(phone):
    """A sum's digits typed 0.4 s apart, as a thumb types them, are one preview: the form waits
    600 ms after the last key. Each digit's own preview was most of what a table asked for."""
    page, console = phone
    start_match(page, NAMES)
    page.locator("#seat-0 .finish").click()
    # The tap's preview came (the placeholder, "Kimin bitirdiğini …", names nobody).
    expect(page.locator("#hand-preview")).to_contain_text("Ali")

    previews = []
    page.on(
        "request",
        lambda request: (
            previews.append(request.post_data)
            if request.headers.get("hx-target") == "hand-preview"
            else None
        ),
    )
    page.locator("#id_p1-remaining").press_sequentially("47", delay=400)
    expect(page.locator("#hand-preview")).to_contain_text("47")
    page.wait_for_timeout(700)  # a second preview, had there been one, would have been asked
    assert len(previews) == 1 and "p1-remaining=47" in previews[0]
    assert console.errors == []
