"""Two phones keeping one sheet: "Geri al" on a phone that has not heard of the other's hand
removes nothing of the other's, and says what happened (issue: never wrong in silence)."""

from playwright.sync_api import expect

from cetele.models import Hand, Match
from tests.browser.sheet import enter_hand, start_match, wait_for_hand
from tests.browser.test_at_the_table import NAMES, TYPICAL_HANDS


def test_geri_al_on_a_phone_that_missed_another_phones_hand_removes_nothing(phone, second_phone):
    page, console = phone
    other, other_console = second_phone
    start_match(page, NAMES)
    enter_hand(page, NAMES, TYPICAL_HANDS["normal"])  # phone A: "1. el kaydedildi. ↶ Geri al"
    wait_for_hand(page, 2)
    note = page.locator("#saved-note")
    expect(note).to_contain_text("1. el kaydedildi.")

    other.goto(page.url)  # phone B, with the same edit link, saves hand 2
    enter_hand(other, NAMES, TYPICAL_HANDS["normal"])
    wait_for_hand(other, 3)
    assert Hand.objects.count() == 2

    note.get_by_role("button", name="Geri al").click()  # A has not polled since

    expect(page.locator(".messages")).to_contain_text(
        "2. el başka bir telefondan eklendi; hiçbir şey geri alınmadı."
    )
    assert Hand.objects.count() == 2  # B's hand 2 is still there, and so is A's hand 1
    expect(page.locator("table.sheet tbody tr")).to_have_count(2)

    # The page now names the latest change: its Geri al undoes hand 2, then Yinele brings it back.
    page.get_by_role("button", name="Geri al: El eklendi").click()
    expect(page.locator(".messages")).to_contain_text("Geri alındı: El eklendi.")
    assert Hand.objects.count() == 1
    page.get_by_role("button", name="Yinele").click()
    expect(page.locator(".messages")).to_contain_text("Yinelendi: El eklendi.")
    assert Match.objects.get().hands.count() == 2
    assert console.errors == [] and other_console.errors == []
