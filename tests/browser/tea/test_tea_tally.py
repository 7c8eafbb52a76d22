"""The tea tally on a phone: "+ çay" tapped as the drinks come, one taken back, the match played
to its end and the bill in its summary; and at a table, with the table's prices."""

import pytest
from django.test import Client
from playwright.sync_api import expect

from cetele.models import Match
from cetele.tea.models import Drink
from tests.browser.shell.test_accessibility import blocking_violations
from tests.browser.shell.test_offline import UNANSWERED_MS, go_offline, hang_the_first_post
from tests.browser.tables.test_tables import play_hand
from tests.factories import make_match
from tests.web.tables.test_tables_and_rematches import start_at, table_with
from tests.web.tea.test_tea_tally import DENIZ, KAHVE, LOSER_DENIZ, finished_match
from tests.web.tea.test_tea_tally import tap as web_tap

# worker: what the service worker keeps for a phone offline (tests/browser/conftest.py).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]


def cell(page, seat: int, item: int):
    return page.locator(f'#tea [data-tea-cell="{seat}-{item}"]')


def open_card(page, path: str) -> None:
    """Open a page and wait for its tea card and the card's tea.js, which comes after the card:
    a phone that loses its signal at the table has had them for a while. (A tap made before
    tea.js ran was a plain htmx request that nothing kept; on a fast browser the tests' taps
    came that early.)"""
    page.goto(path)
    expect(page.locator("#tea [data-tea-count]").first).to_be_visible()
    page.wait_for_function("() => window.ceteleTea === true")


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


def held_answers(page, pattern: str, method: str) -> list:
    """The first `method` request for `pattern` is answered by the server now (drawn at this
    moment) and held on its way back to the page: (route, answer), to be let through later.
    The others go on."""
    held: list = []

    def hold(route) -> None:
        if held or route.request.method != method:
            route.continue_()
        else:
            held.append((route, route.fetch()))

    page.route(pattern, hold)
    return held


def wait_for(held: list, page) -> tuple:
    for _ in range(100):
        if held:
            return held[0]
        page.wait_for_timeout(50)
    raise AssertionError("the page did not ask")


def test_a_sheet_asked_before_a_tap_and_answered_after_it_puts_no_older_count_back(phone):
    """The page asks for its sheet (another change, or its stream told it of its own last tap)
    and the answer, drawn before the next tap, comes after that tap's own answer: the card it
    carries is older and is not put back (it showed 2, then 1, then 2 again, and the tap's
    sentence went with it)."""
    page, console = phone
    match = make_match(planned_hands=3)
    open_card(page, f"/m/{match.edit_token}/")
    tap(page, 0, 0, "Ali", "çay", 1)  # the sheet the page shows is now older than the server's
    polls = held_answers(page, "**/poll/**", "GET")  # drawn now, at one çay; answered later
    page.evaluate("document.dispatchEvent(new CustomEvent('cetele:poll-now'))")
    route, answer = wait_for(polls, page)
    tap(page, 0, 0, "Ali", "çay", 2)
    expect(page.locator("#tea [data-tea-note]")).to_have_text("Ali: bir çay daha (2).")
    assert answer.status == 200 and 'data-tea-version="' in answer.text()
    asked = page.get_attribute("#sheet", "hx-get")
    route.fulfill(response=answer)
    page.wait_for_function(  # the late sheet is in (it names its version)
        "(asked) => document.querySelector('#sheet').getAttribute('hx-get') !== asked", arg=asked
    )
    page.wait_for_timeout(300)
    expect(cell(page, 0, 0).locator("[data-tea-count]")).to_have_text("2")
    expect(page.locator("#tea [data-tea-note]")).to_have_text("Ali: bir çay daha (2).")
    assert console.errors == []


def test_a_sheet_answered_after_a_tap_brought_a_newer_one_is_left_and_the_page_asks_again(phone):
    """After the match, another phone taps and this page asks for its sheet; a tap here brings
    the newer sheet and bill before that answer comes. The late answer went into the sheet no
    longer shown and its card found no place on the page (htmx:oobErrorNoTarget): now it is left,
    and the page asks again from the sheet it shows."""
    page, console = phone
    match = finished_match(LOSER_DENIZ)
    open_card(page, f"/m/{match.edit_token}/")
    web_tap(Client(), match, DENIZ, KAHVE)  # another phone: this page's sheet is behind
    polls = held_answers(page, "**/poll/**", "GET")
    page.evaluate("document.dispatchEvent(new CustomEvent('cetele:poll-now'))")
    route, answer = wait_for(polls, page)
    assert answer.status == 200 and 'id="tea"' in answer.text()

    tap(page, 0, 0, "Ali", "çay", 1)  # its answer brings the sheet, with the bill, at once
    bill = page.locator("section.summary [data-tea-bill]")
    expect(bill).to_contain_text("Toplam: 1 çay, 1 kahve")
    with page.expect_request("**/poll/**"):  # the page asks again
        route.fulfill(response=answer)
    page.wait_for_timeout(300)
    expect(bill).to_contain_text("Toplam: 1 çay, 1 kahve")
    expect(cell(page, 3, 1).locator("[data-tea-count]")).to_have_text("1")
    expect(page.locator("#tea [data-tea-note]")).to_have_text("Ali: bir çay daha (1).")
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


# --- Drinks at the table before its first match ---------------------------------------------------


def test_tea_at_a_table_before_its_first_match_goes_into_the_match_and_its_bill(phone):
    page, console = phone
    table = table_with(("Ali", "Ayşe", "Can", "Deniz", "Ece"))
    page.goto(f"/masa/{table.edit_token}/")
    expect(page.locator("#tea h2")).to_have_text("Çay defteri · masada")

    tap(page, 4, 0, "Ece", "çay", 1)  # Ece, the fifth at the table
    tap(page, 4, 0, "Ece", "çay", 2)
    tap(page, 0, 1, "Ali", "kahve", 1)  # Ali sits the first match out
    tap(page, 1, 1, "Ayşe", "kahve", 1)
    cell(page, 4, 0).get_by_role("button", name="Ece: son çay geri al").click()
    expect(cell(page, 4, 0).locator("[data-tea-count]")).to_have_text("1")
    assert blocking_violations(page) == []

    match = start_at(table, [4, 1, 2, 3], planned_hands=3)  # Ece at seat 0, Ayşe at seat 1
    page.reload()
    expect(page.locator("#tea h2")).to_have_text("Çay defteri")
    expect(cell(page, 0, 0).locator("[data-tea-count]")).to_have_text("1")  # Ece's
    expect(cell(page, 1, 1).locator("[data-tea-count]")).to_have_text("1")  # Ayşe's
    assert Drink.objects.filter(table=table, place=0).count() == 1  # Ali's still waits

    page.goto(f"/m/{match.edit_token}/")
    for finisher in (0, 1, 2):
        play_hand(page, finisher)
    bill = page.locator("section.summary [data-tea-bill]")
    expect(bill).to_contain_text("Ece: 1 çay")
    expect(bill).to_contain_text("Ayşe: 1 kahve")
    expect(bill).to_contain_text("Kaybeden öder: Deniz")
    assert console.errors == []


# --- Taps without signal ------------------------------------------------------------------------


def kept_taps(page) -> dict:
    return page.evaluate(
        """() => Object.fromEntries(Object.keys(localStorage)
             .filter((k) => k.startsWith("cetele.tea.")).map((k) => [k, localStorage[k]]))"""
    )


def drinks_reach(match, count: int, page) -> None:
    for _ in range(100):
        if Drink.objects.filter(match=match).count() == count:
            return
        page.wait_for_timeout(100)
    assert Drink.objects.filter(match=match).count() == count


@pytest.mark.races
def test_taps_without_signal_wait_on_the_phone_and_count_once_when_back(phone, second_phone):
    page, console = phone
    match = make_match(planned_hands=3)
    open_card(page, f"/m/{match.edit_token}/")
    expect(cell(page, 0, 0).locator("[data-tea-count]")).to_have_text("0")

    go_offline(page)
    add = cell(page, 0, 0).get_by_role("button", name="+ çay (Ali)", exact=True)
    add.click()
    add.click()
    cell(page, 3, 1).get_by_role("button", name="+ kahve (Deniz)", exact=True).click()
    # Deniz's kahve was a mistake: "−" takes the waiting tap back on the phone.
    cell(page, 3, 1).get_by_role("button", name="Deniz: son kahve geri al").click()

    expect(cell(page, 0, 0).locator("[data-tea-count]")).to_have_text("2")
    expect(cell(page, 0, 0).locator("[data-tea-kept]")).to_have_text("bekliyor")
    expect(cell(page, 3, 1).locator("[data-tea-count]")).to_have_text("0")
    expect(cell(page, 3, 1).locator("[data-tea-kept]")).to_have_count(0)
    expect(page.locator("#tea [data-tea-note]")).to_contain_text("Bağlantı yok")
    assert len(kept_taps(page)) == 2
    assert all(match.edit_token not in value for value in kept_taps(page).values())
    assert not Drink.objects.filter(match=match).exists()

    page.context.set_offline(False)
    drinks_reach(match, 2, page)
    expect(cell(page, 0, 0).locator("[data-tea-kept]")).to_have_count(0)
    expect(cell(page, 0, 0).locator("[data-tea-count]")).to_have_text("2")
    expect(page.locator("#tea")).to_contain_text("Ali: bir çay daha (2).")
    assert kept_taps(page) == {}

    # Another phone of the match shows them.
    other, _ = second_phone
    other.goto(f"/m/{match.edit_token}/")
    expect(other.locator('#tea [data-tea-cell="0-0"] [data-tea-count]')).to_have_text("2")
    # Once back, a tap goes at once again.
    tap(page, 2, 0, "Can", "çay", 1)
    assert Drink.objects.filter(match=match).count() == 3
    # Requests that found no connection say so on the console (how, depends on whether the
    # worker answered them: CI saw ERR_FAILED and htmx:sendError); anything else is an error.
    no_connection = ("ERR_INTERNET_DISCONNECTED", "ERR_FAILED", "htmx:sendError")
    assert [e for e in console.errors if not any(n in e for n in no_connection)] == []


def test_a_kept_tap_whose_send_hangs_is_sent_again_and_counted_once(phone):
    """Back online, the café's Wi-Fi takes the kept tap and carries nothing back: given up after
    a while, it still waits, and the next send (every 10 s) counts it once. (A send that hung held
    every later one of the page behind it.)"""
    page, console = phone
    match = make_match(planned_hands=3)
    open_card(page, f"/m/{match.edit_token}/")
    expect(cell(page, 0, 0).locator("[data-tea-count]")).to_have_text("0")
    go_offline(page)
    cell(page, 0, 0).get_by_role("button", name="+ çay (Ali)", exact=True).click()
    assert len(kept_taps(page)) == 1
    held = hang_the_first_post(page, "**/cay/")
    page.context.set_offline(False)
    for _ in range(50):  # the "online" event sends it at once
        if held:
            break
        page.wait_for_timeout(100)
    assert len(held) == 1 and not Drink.objects.filter(match=match).exists()
    page.wait_for_timeout(UNANSWERED_MS)  # the time a send may hang; the next is due within 10 s
    drinks_reach(match, 1, page)
    expect(cell(page, 0, 0).locator("[data-tea-kept]")).to_have_count(0)  # answered
    expect(cell(page, 0, 0).locator("[data-tea-count]")).to_have_text("1")
    assert kept_taps(page) == {} and Drink.objects.filter(match=match).count() == 1
    no_connection = ("ERR_INTERNET_DISCONNECTED", "ERR_FAILED", "htmx:sendError")
    assert [e for e in console.errors if not any(n in e for n in no_connection)] == []


@pytest.mark.races
def test_a_tap_whose_answer_was_lost_is_sent_again_and_counted_once(phone):
    page, console = phone
    table = table_with()
    open_card(page, f"/masa/{table.edit_token}/")
    lost = []

    def lose_the_answer(route):
        route.fetch()  # the server has it...
        lost.append(route.request.post_data)
        route.abort()  # ...and the phone never hears back

    page.route("**/cay/masada/", lose_the_answer)
    cell(page, 2, 0).get_by_role("button", name="+ çay (Can)", exact=True).click()
    expect(cell(page, 2, 0).locator("[data-tea-kept]")).to_have_text("bekliyor")
    assert Drink.objects.filter(table=table).count() == 1
    page.unroute("**/cay/masada/")

    page.wait_for_function(
        "() => !Object.keys(localStorage).some((k) => k.startsWith('cetele.tea.'))", timeout=15_000
    )
    expect(page.locator("#tea")).to_contain_text("zaten sayılmıştı (1)")
    expect(cell(page, 2, 0).locator("[data-tea-count]")).to_have_text("1")
    assert Drink.objects.filter(table=table).count() == 1 and len(lost) == 1
