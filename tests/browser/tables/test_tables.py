"""A table's evening on a phone: set up the table, play a short match, look at its picture and
summary, "Rövanş", play again, and read the season's standings; then the table on the home page.
"""

from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

from cetele.models import Match, Table
from tests.browser.shell.test_accessibility import blocking_violations

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ali", "Ayşe", "Can", "Deniz"]


def play_hand(page, finisher: int, seats: int = 4) -> None:
    """Save a hand that `finisher` finished and nobody else opened, through the hand form (by
    its stable field names: the form's look may change, these names stay)."""
    rows = page.locator("table.sheet tbody tr").count()
    form = page.locator("#hand-form")
    form.locator(f'input[name="finisher"][value="{finisher}"]').check(force=True)
    for seat in range(seats):
        if seat != finisher:
            form.locator(f'input[name="p{seat}-opened"][value="no"]').check(force=True)
    form.locator('button[name="action"][value="save"]').click()
    expect(page.locator("table.sheet tbody tr")).to_have_count(rows + 1)


def standings(page) -> list[list[str]]:
    rows = page.locator("#standings tbody tr")
    return [rows.nth(i).locator("td, th").all_inner_texts() for i in range(rows.count())]


def test_a_table_plays_a_match_rematches_plays_again_and_reads_its_standings(phone):
    page, console = phone

    # Set up the table from the home page.
    page.goto("/")
    page.get_by_role("link", name="Masa kur").click()
    page.fill("#id_name", "Cuma")
    for number, name in enumerate(NAMES, start=1):
        page.fill(f"#id_player_{number}", name)
    page.get_by_role("button", name="Masayı kur").click()
    page.wait_for_url("**/masa/*/")
    table_url = page.url
    expect(page.locator("h1")).to_have_text("Cuma")

    # A three-hand match at the table: its players are already in their seats.
    page.get_by_role("link", name="Yeni maç").click()
    assert [page.locator(f"#id_name_{n} option:checked").inner_text() for n in range(1, 5)] == NAMES
    page.select_option("#id_planned_hands", "3")
    page.get_by_role("button", name="Maçı başlat").click()
    page.wait_for_url("**/m/*/")
    for finisher in (0, 1, 0):  # each finish: -101, the three others 202
        play_hand(page, finisher)

    # The picture and the summary: Ali 0, Ayşe 303, Can 606, Deniz 606.
    chart = page.locator("svg.chart-svg")
    expect(chart).to_be_visible()
    values = [line.get_attribute("data-values") for line in chart.locator("polyline").all()]
    assert sorted(values) == sorted(
        ["0 -101 101 0", "0 202 101 303", "0 202 404 606"] + ["0 202 404 606"]
    )
    summary = page.locator("section.summary")
    expect(summary).to_contain_text("Ali")
    assert summary.locator("ol li").first.inner_text().split() == ["1.", "Ali", "0"]
    expect(summary).to_contain_text("En çok bitiren")

    # Rövanş: the same players, each one seat along.
    first_url = page.url
    page.locator("#hand-form").get_by_role("button", name="Rövanş").click()
    page.wait_for_url(lambda url: url != first_url and "/m/" in url)
    expect(page).to_have_title("Çetele · Deniz, Ali, Ayşe, Can")
    assert Match.objects.count() == 2
    for _ in range(3):
        play_hand(page, 2)  # Ayşe finishes every hand
    expect(page.locator("section.summary")).to_contain_text("Ayşe")

    # The table: both matches, and the season's standings. Ali and Ayşe won one each with the
    # same average place (1.5); Ayşe's 0 a hand beats Ali's 101.
    page.get_by_role("link", name="Masa", exact=True).click()
    page.wait_for_url(table_url)
    expect(page.locator(".table-matches li")).to_have_count(2)
    assert standings(page) == [
        ["1", "Ayşe", "2", "1", "1,5", "0,0"],
        ["2", "Ali", "2", "1", "1,5", "101,0"],
        ["3", "Can", "2", "0", "2,5", "202,0"],
        ["3", "Deniz", "2", "0", "2,5", "202,0"],
    ]
    whatsapp = page.get_by_role("link", name="WhatsApp").get_attribute("href")
    text = parse_qs(urlparse(whatsapp).query)["text"][0]
    table = Table.objects.get()
    assert text.splitlines()[1] == "1. Ayşe: 1 galibiyet / 2 maç"
    assert text.endswith(f"/masa/izle/{table.view_token}/")
    assert blocking_violations(page) == []

    # "Maçlarım" on the home page lists the table too.
    page.goto("/")
    expect(page.locator("[data-my-matches] li").first).to_contain_text("Masa: Cuma")
    assert console.errors == []


def test_the_chart_is_readable_in_dark_mode_and_fits_a_320_px_phone(phone):
    page, console = phone
    from tests.factories import make_match

    match = make_match(hands=13, planned_hands=13)
    page.set_viewport_size({"width": 320, "height": 700})
    page.goto(f"/m/{match.edit_token}/")

    chart = page.locator("svg.chart-svg")
    chart.scroll_into_view_if_needed()
    box = chart.bounding_box()
    assert 250 < box["width"] <= 320 and box["height"] > 100
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    line = "svg.chart-svg polyline.s0"
    light = page.eval_on_selector(line, "el => getComputedStyle(el).stroke")
    page.emulate_media(color_scheme="dark")
    dark = page.eval_on_selector(line, "el => getComputedStyle(el).stroke")
    card = page.eval_on_selector(".chart", "el => getComputedStyle(el).backgroundColor")
    assert (light, dark) == ("rgb(29, 78, 216)", "rgb(147, 197, 253)")
    assert card != "rgb(255, 255, 255)"  # the card went dark behind the light line
    assert blocking_violations(page) == []
    assert console.errors == []
