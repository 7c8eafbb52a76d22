"""House rules on a phone: build a preset, start a match with it, see the changed scores."""

import re

import pytest
from playwright.sync_api import expect

import scoring
from cetele.models import Hand, HousePreset, Match
from tests.browser.sheet import enter_hand, totals

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ali", "Ayşe", "Can", "Deniz"]
OKEY_HAND = {
    "finisher": 0,
    "okey_finish": True,
    "players": [
        {"opened": "series"},
        {"opened": "series", "remaining": 23},
        {"opened": "pairs", "remaining": 41},
        {"opened": "no"},
    ],
}


def test_build_a_house_preset_start_a_match_with_it_and_see_the_changed_scores(phone):
    page, console = phone

    # The rules page lists the built-ins; start a house preset from the standard table.
    page.goto("/")
    page.get_by_role("link", name="Kurallar", exact=True).click()
    page.wait_for_url("**/kurallar/")
    assert page.get_by_role("link", name="Çetele Standart").is_visible()
    page.get_by_role("link", name="Yeni ev kuralı yap").click()
    page.wait_for_url("**/kurallar/yeni/**")

    page.get_by_label("Adı:", exact=True).fill("Bizim masa")
    winner = page.get_by_label("Okeyle bitiş — Bitiren")
    winner.fill("-303")
    # The worked example follows as you type; the inputs are not re-rendered under your fingers.
    first_seat = page.locator("#rules-example [data-sample='1'] [data-seat='0']")
    expect(first_seat).to_have_text("-303")
    multiplier = page.get_by_label("Okeyle bitiş — Açan ×")
    multiplier.fill("3")
    burak = page.locator("#rules-example [data-sample='1'] [data-seat='1']")
    # Burak opened pairs with 23 and a fake okey (7): (23 + 7) × 2 × 3 + 101.
    expect(burak).to_have_text("281")
    assert first_seat.inner_text() == "-303" and burak.inner_text() == "281"
    assert winner.input_value() == "-303" and multiplier.input_value() == "3"

    # An invalid value is refused next to its field, and nothing is saved.
    page.get_by_label("Okeyle bitiş — Açamayan").fill("")
    page.get_by_role("button", name="Kaydet").click()
    page.wait_for_selector("text=Kaydedilmedi: işaretli alanları düzeltin.")
    assert HousePreset.objects.count() == 0
    assert page.locator("#id_r-finishes__okey__not_opened[aria-invalid='true']").count() == 1
    page.get_by_label("Okeyle bitiş — Açamayan").fill("404")
    page.get_by_role("button", name="Kaydet").click()

    # Saved: the edit page gives the share link and a way to start a match.
    page.wait_for_url(re.compile(r"/ev/[^/]+/duzenle/$"))
    house = HousePreset.objects.get()
    assert house.rules["finishes"]["okey"] == {
        "winner": -303,
        "opened_multiplier": 3,
        "not_opened": 404,
    }
    assert page.locator("#view-url").input_value().endswith(f"/ev/{house.view_token}/")
    page.get_by_role("link", name="Bu kurallarla maç başlat").click()

    # Starting a match: the house preset is chosen.
    page.wait_for_url(re.compile(r"/yeni/\?preset="))
    assert page.locator("#id_preset option:checked").inner_text() == "Bizim masa"
    for seat, name in enumerate(NAMES, start=1):
        page.fill(f"#id_name_{seat}", name)
    page.select_option("#id_planned_hands", "5")
    page.get_by_role("button", name="Maçı başlat").click()
    page.wait_for_url("**/m/*/")
    match = Match.objects.get()
    assert match.rules == house.rules

    # A hand with an okey finish, entered on the hand form: the sheet shows the new scores.
    enter_hand(page, NAMES, OKEY_HAND)
    page.wait_for_selector("#entry-title:text('2. el')")
    expected = scoring.score_json({"rules": house.rules, "hand": Hand.objects.get().inputs})
    assert expected["scores"][0] == -303
    assert expected["scores"][1] == 23 * 3
    assert totals(page) == [str(score) for score in expected["scores"]]

    # The match's rules, in full, with nothing marked: it plays its preset unchanged.
    page.locator("nav.actions").get_by_role("link", name="Kurallar", exact=True).click()
    page.wait_for_url("**/kurallar/")
    assert "-303" in page.locator("tr[data-kind='okey']").inner_text()
    assert page.locator("mark.diff").count() == 0

    # The phone remembers the preset: the rules page lists it, with its edit link.
    page.goto("/kurallar/")
    mine = page.locator("[data-my-presets]")
    assert mine.is_visible()
    assert mine.get_by_role("link", name="Bizim masa").get_attribute("href") == (
        f"/ev/{house.view_token}/"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    # ...and offers it first when starting the next match.
    page.goto("/yeni/")
    recent = page.locator("#id_preset optgroup").first
    assert recent.get_attribute("label") == "Bu telefonda son kullanılanlar"
    assert recent.locator("option").first.inner_text() == "Bizim masa"
    assert page.locator("#id_preset option:checked").inner_text() == "Bizim masa"
    assert console.errors == []


def test_adjust_a_preset_for_one_match_and_see_the_differences_marked(phone):
    page, console = phone
    page.goto("/yeni/")
    for seat, name in enumerate(NAMES, start=1):
        page.fill(f"#id_name_{seat}", name)
    page.select_option("#id_preset", "om-klasik")

    page.get_by_role("button", name="Kuralları bu maç için değiştir").click()
    page.wait_for_selector("h1:text('Bu maçın kuralları')")
    page.get_by_label("Okeyle bitiş — Bitiren").fill("-303")
    page.get_by_role("button", name="Bu kurallarla maçı başlat").click()
    page.wait_for_url("**/m/*/")

    match = Match.objects.get()
    assert [p.name for p in match.players.all()] == NAMES
    assert match.rules["finishes"]["okey"]["winner"] == -303
    assert match.base_rules == scoring.PRESETS["om-klasik"].rules
    page.locator("nav.actions").get_by_role("link", name="Kurallar", exact=True).click()
    page.wait_for_url("**/kurallar/")
    assert page.locator("mark.diff").filter(has_text="-303").count() == 1
    assert console.errors == []
