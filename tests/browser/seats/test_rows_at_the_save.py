"""A joined phone's row that reached the server after the scorer's page last asked for rows, and
the scorer taps "Eli kaydet": the hand is not saved over it; the form shows the row and says so,
and the next tap saves it (cetele.seats.arrivals; the server's side:
tests/web/seats/test_rows_at_the_save.py)."""

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

import scoring
from cetele.models import Match

NAMES = ["Ayla", "Bora", "Cem", "Deniz"]
ROW = {"position": "1", "row-opened": "series", "row-remaining": "20"}
ROW |= {"row-okeys": "0", "row-fake_okeys": "0"}


@pytest.mark.races
def test_the_scorer_sees_the_row_that_arrived_at_the_save_and_saves_it_next(phone):
    page, console = phone
    match = Match.start(
        NAMES, teams=False, planned_hands=3, rules=scoring.resolve_rules("cetele-standart")
    )
    page.goto(f"/m/{match.edit_token}/")  # drawn before anyone joined
    expect(page.locator("#table-rows[hx-trigger^='every']")).to_have_count(1)
    # From here the page learns nothing of the rows, as between two of its polls: Bora joins
    # and writes his row in that time.
    page.route("**/satirlar/**", lambda route: route.fulfill(status=204))
    bora = Client()
    bora.post(reverse("seats:join_match", args=[match.join_token]), {"seat": "1"})
    bora.post(reverse("seats:join_row", args=[match.join_token]), ROW)

    page.locator("#seat-0 .finish").click()  # Ayla's "Bitirdi"
    picker = page.locator("#indicator-picker")
    picker.locator(".colours").get_by_text("Kırmızı").click()
    picker.locator(".numbers").get_by_text("7", exact=True).click()
    page.unroute("**/satirlar/**")
    page.get_by_role("button", name="Eli kaydet").click()

    alert = page.locator("#hand-form [role=alert]")
    expect(alert.filter(has_text="El kaydedilmedi")).to_have_count(1)
    expect(alert.filter(has_text="Bora yazdı: Seri · 20 — bakıp kaydedin.")).to_have_count(1)
    expect(page.locator("#seat-1 input[name='p1-remaining']")).to_have_value("20")
    expect(page.locator("#seat-1 input[name='p1-opened'][value=series]")).to_be_checked()
    # The rows' section, asked for at once, shows his row too.
    expect(page.locator("#table-rows li.written", has_text="Bora")).to_have_count(1)
    assert not match.hands.exists()

    page.get_by_role("button", name="Eli kaydet").click()

    expect(page.locator("#saved-note")).to_contain_text("1. el kaydedildi")
    hand = match.hands.get()
    assert hand.inputs["players"][1]["remaining"] == 20
    assert console.errors == []
