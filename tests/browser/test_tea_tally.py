"""The tea tally on a phone: "+ çay" tapped as the drinks come, one taken back, the match played
to its end and the bill in its summary; and at a table, with the table's prices."""

import pytest
from playwright.sync_api import expect

from cetele.models import Match
from cetele.tea.models import Drink
from tests.browser.test_accessibility import blocking_violations
from tests.browser.test_tables import play_hand
from tests.factories import make_match
from tests.web.test_tables import start_at, table_with

pytestmark = pytest.mark.django_db(transaction=True)


def cell(page, seat: int, item: int):
    return page.locator(f'#tea [data-tea-cell="{seat}-{item}"]')


def tap(page, seat: int, item: int, name: str, label: str, count: int) -> None:
    """Tap "+ <item>" of one player and wait for the card to show the new count."""
    cell(page, seat, item).get_by_role("button", name=f"+ {label} ({name})", exact=True).click()
    expect(cell(page, seat, item).locator("[data-tea-count]")).to_have_text(str(count))


def test_tea_at_a_match_tapped_taken_back_and_billed_at_the_end(phone):
    page, console = phone
    match = make_match(planned_hands=3)
    page.goto(f"/m/{match.edit_token}/")
    expect(page.locator("#tea h2")).to_have_text("Çay defteri")

    for count in (1, 2, 3):
        tap(page, 0, 0, "Ali", "çay", count)
    tap(page, 3, 1, "Deniz", "kahve", 1)
    # One of Ali's çays was Can's: take it back, give it to Can.
    cell(page, 0, 0).get_by_role("button", name="Ali: son çay geri al").click()
    expect(cell(page, 0, 0).locator("[data-tea-count]")).to_have_text("2")
    expect(page.locator("[data-tea-note]")).to_have_text("Ali: bir çay geri alındı (2).")
    tap(page, 2, 0, "Can", "çay", 1)
    assert Drink.objects.filter(match=match).count() == 4

    # Three hands: Ali, Ayşe, Can finish one each; totals 303, 303, 303 and Deniz 606.
    for finisher in (0, 1, 2):
        play_hand(page, finisher)
    bill = page.locator("section.summary [data-tea-bill]")
    expect(bill).to_contain_text("Kaybeden öder: Deniz")
    expect(bill).to_contain_text("Toplam: 3 çay, 1 kahve")
    whatsapp = bill.get_by_role("link", name="WhatsApp")
    assert "Kaybeden%20%C3%B6der%3A%20Deniz" in whatsapp.get_attribute("href")

    # A last çay after the end: the bill follows at once.
    tap(page, 1, 0, "Ayşe", "çay", 1)
    expect(bill).to_contain_text("Toplam: 4 çay, 1 kahve")
    assert Match.objects.get(pk=match.pk).drinks.count() == 5
    assert blocking_violations(page) == []
    # On a narrow phone nothing of the card or the bill runs off the screen.
    page.set_viewport_size({"width": 320, "height": 640})
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    assert console.errors == []


def test_tea_at_a_table_with_its_prices(phone):
    page, console = phone
    table = table_with()
    page.goto(f"/masa/{table.edit_token}/")
    page.get_by_role("link", name="Çay listesi").first.click()
    page.fill("#id_price_0", "15")
    page.fill("#id_price_1", "40,50")
    page.get_by_role("button", name="Kaydet").click()
    page.wait_for_url(f"**/masa/{table.edit_token}/#tea")
    expect(page.locator(".messages")).to_contain_text("Çay listesi kaydedildi.")

    match = start_at(table, [0, 1, 2, 3], planned_hands=3)
    page.reload()
    tap(page, 1, 0, "Ayşe", "çay", 1)
    tap(page, 1, 0, "Ayşe", "çay", 2)
    tap(page, 3, 1, "Deniz", "kahve", 1)
    expect(page.locator("#tea")).to_contain_text("Toplam: 2 çay, 1 kahve.")
    assert blocking_violations(page) == []
    assert Drink.objects.filter(match=match, seat=1, item=0).count() == 2

    # The match's own page shows the same tally, and its bill has the table's prices.
    page.goto(f"/m/{match.edit_token}/")
    expect(cell(page, 1, 0).locator("[data-tea-count]")).to_have_text("2")
    for finisher in (0, 1, 2):
        play_hand(page, finisher)
    bill = page.locator("section.summary [data-tea-bill]")
    expect(bill).to_contain_text("Toplam: 2 çay, 1 kahve — 70,50\u00a0₺")
    expect(bill).to_contain_text("Kaybeden öder: Deniz")
    assert blocking_violations(page) == []
    page.goto(f"/masa/{table.edit_token}/cay/")
    assert blocking_violations(page) == []
    assert console.errors == []
