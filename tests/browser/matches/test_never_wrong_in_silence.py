"""Two phones keeping one sheet: "Geri al" on a phone that has not heard of the other's hand
removes nothing of the other's, and says what happened (issue: never wrong in silence)."""

import contextlib

import pytest
from playwright.sync_api import Error, expect

from cetele.models import Hand, Match
from tests.browser.matches.test_at_the_table import NAMES, TYPICAL_HANDS
from tests.browser.sheet import enter_hand, is_a_save, start_match, wait_for_hand


@pytest.mark.races
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
    page.get_by_role("button", name="Geri al: 2. el eklendi").click()
    expect(page.locator(".messages")).to_contain_text("2. el çeteleden çıkarıldı.")
    assert Hand.objects.count() == 1
    page.get_by_role("button", name="Yinele").click()
    expect(page.locator(".messages")).to_contain_text("2. el yeniden eklendi.")
    assert Match.objects.get().hands.count() == 2
    assert console.errors == [] and other_console.errors == []


def test_a_save_tapped_while_a_preview_is_on_its_way_is_sent_whatever_the_form_asks_next(phone):
    """ "Eli kaydet" tapped while the preview of the last keystroke is still on its way (a slow
    café Wi-Fi) must go: it may not wait in the form's queue, where the next preview (a phone's
    row filled in by seats.js, another tap) would take its place and the tap would vanish."""
    page, console = phone
    start_match(page, NAMES)
    held = []

    def hold_the_first_preview(route):
        if is_a_save(route.request) or held:
            route.continue_()
        else:
            held.append(route)  # the answer to this preview is slow to come

    page.route("**/el/", hold_the_first_preview)
    page.locator("#seat-0 .finish").click()  # a preview leaves, and hangs
    for seat, remaining in ((1, "34"), (2, "12"), (3, "51")):
        page.fill(f"#id_p{seat}-remaining", remaining)
    page.get_by_role("button", name="Eli kaydet").click()
    # A tap after it (or a phone's row that seats.js fills in): the form asks for a preview.
    page.locator("#seat-1 .opened-pairs").click()
    for route in held:
        with contextlib.suppress(Error):  # the save aborted it: nothing to let through
            route.continue_()

    expect(page.locator("#saved-note")).to_contain_text("1. el kaydedildi.")
    expect(page.locator("[id=hand-form]")).to_have_count(1)
    assert Hand.objects.count() == 1
    assert Hand.objects.get().inputs["players"][3]["remaining"] == 51
    assert console.errors == []


def test_while_a_save_is_on_its_way_no_other_button_of_the_form_can_drop_it(phone):
    page, console = phone
    start_match(page, NAMES)
    held = []

    def hold_the_save(route):
        if is_a_save(route.request) and not held:
            held.append(route)  # the save's answer is slow to come
        else:
            route.continue_()

    page.route("**/el/", hold_the_save)
    enter_hand(page, NAMES, TYPICAL_HANDS["normal"])  # ends with the tap on "Eli kaydet"
    expect(page.locator("#hand-form").get_by_role("button", name="Önizle")).to_be_disabled()
    expect(page.locator("#hand-form button:enabled")).to_have_count(0)  # "+ Ceza ekle" too
    # The buttons are off from the tap; the save itself may leave a moment later, queued behind
    # the preview of the last keystroke (hx-sync): wait for it to be the one held.
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the save never left the phone"
    expect(page.locator("#hand-form button:enabled")).to_have_count(0)
    held[0].continue_()

    expect(page.locator("#saved-note")).to_contain_text("1. el kaydedildi.")
    expect(page.locator("#hand-form").get_by_role("button", name="Önizle")).to_be_enabled()
    assert Hand.objects.count() == 1
    assert console.errors == []
