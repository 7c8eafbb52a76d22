"""Deleting on a phone: "Maçı sil" takes a tick and a tap, the match leaves this phone's
"Maçlarım", a phone still watching it is told the match was deleted, and the confirmation
page passes axe."""

import pytest
from playwright.sync_api import expect

import scoring
from cetele.models import HousePreset, Match
from tests.browser.live.test_live_view import install_clock, ticks
from tests.browser.sheet import start_match
from tests.browser.shell.test_accessibility import blocking_violations
from tests.factories import add_hand, sample_inputs

pytestmark = pytest.mark.django_db(transaction=True)


def test_deleting_a_match_on_the_phone(phone, second_phone):
    editor, editor_console = phone
    viewer, viewer_console = second_phone
    start_match(editor, ["Zerrin", "Ayşe"], hands=5)
    doomed = Match.objects.get()
    add_hand(doomed, sample_inputs(2, finisher=0, remaining=10))
    start_match(editor, ["Kalan", "Öteki"], hands=5)
    kept = Match.objects.exclude(pk=doomed.pk).get()
    install_clock(viewer)  # the viewer's polls follow cetele.live.schedule's schedule: jump ahead
    viewer.goto(f"/v/{doomed.view_token}/")
    editor.goto("/")
    expect(editor.locator("[data-my-matches] li")).to_have_count(2)

    editor.goto(f"/m/{doomed.edit_token}/")
    editor.get_by_role("link", name="Maçı sil").click()
    expect(editor.get_by_role("heading", name="Zerrin, Ayşe")).to_be_visible()
    assert blocking_violations(editor) == []
    editor.get_by_role("button", name="Sil").click()  # without the tick: nothing happens
    expect(editor.get_by_text("Silmek için önce bu kutuyu işaretleyin.")).to_be_visible()
    assert Match.objects.filter(pk=doomed.pk).exists()
    editor.get_by_label("Evet, silinsin. Bunun geri dönüşü yok.").check()
    editor.get_by_role("button", name="Sil").click()

    expect(editor.get_by_text("Maç silindi")).to_be_visible()
    assert not Match.objects.filter(pk=doomed.pk).exists()
    # "Maçlarım" on this phone lists only the match that is left.
    expect(editor.locator("[data-my-matches] li")).to_have_count(1)
    expect(editor.locator("[data-my-matches] li a")).to_have_attribute(
        "href", f"/m/{kept.edit_token}/"
    )
    editor.reload()
    expect(editor.locator("[data-my-matches] li")).to_have_count(1)
    # The phone still showing the view link learns at its next poll that the match was deleted:
    # our note in place of the page, the names gone from its screen and its "Maçlarım", no 404
    # page swapped in (before: a note that the link "may have been renewed", beside the sheet).
    ticks(viewer, 40)
    expect(viewer.locator("[data-match-deleted]")).to_be_visible()
    expect(viewer.locator("[data-match-deleted]")).to_contain_text("Bu maç silindi")
    expect(viewer.locator("#sheet")).to_have_count(0)
    assert "Zerrin" not in viewer.content() and "Bulunamadı" not in viewer.content()
    assert "Zerrin" not in viewer.title()
    assert editor_console.errors == [] and viewer_console.errors == []
    viewer.goto("/")
    expect(viewer.locator("[data-my-matches] li")).to_have_count(0)


def test_deleting_a_house_preset_on_the_phone(phone):
    page, console = phone
    house = HousePreset.objects.create(
        name="Zerrin'in kuralı",
        rules=scoring.resolve_rules("cetele-standart"),
        base_slug="cetele-standart",
    )
    page.goto(f"/ev/{house.edit_token}/duzenle/")  # this phone now remembers it
    # (A PostgreSQL leg once opened the rules page before that page's note in localStorage
    # reached it: a person reads a page before leaving it.)
    page.wait_for_function(
        "(value) => (localStorage.getItem('cetele.presets') || '').includes(value)",
        arg=house.choice_value,
    )
    page.goto("/kurallar/")
    expect(page.locator("[data-my-presets] li")).to_have_count(1)

    page.goto(f"/ev/{house.edit_token}/duzenle/")
    page.get_by_role("link", name="Ev kuralını sil").click()
    assert blocking_violations(page) == []
    page.get_by_label("Evet, silinsin. Bunun geri dönüşü yok.").check()
    page.get_by_role("button", name="Sil").click()

    expect(page.get_by_text("Ev kuralı silindi.")).to_be_visible()
    expect(page.locator("[data-my-presets] li")).to_have_count(0)
    assert not HousePreset.objects.exists()
    assert console.errors == []
