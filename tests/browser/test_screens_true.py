"""Screens that say nothing false, without a reload: what the hand form, the sheet and the rows'
list show always goes with what the page holds now."""

import pytest
from playwright.sync_api import expect

from tests.browser.sheet import start_match

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
    page.wait_for_timeout(500)  # the typing's preview (delay 300 ms) has come back

    page.locator("#seat-0 .finish").click()

    expect(page.locator("#id_p0-remaining")).to_have_value("")
    expect(page.locator("#hand-preview")).to_contain_text("Ayşe")  # the hand's scores
    expect(page.locator("#hand-form")).not_to_contain_text("toplamı silin")
    assert console.errors == []
