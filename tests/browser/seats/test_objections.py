"""In a real phone-sized browser: a joined phone objects to a hand ("İtiraz"), the scorer's sheet
shows it without a reload, the scorer closes one ("Doğru, kapat") and corrects the hand of
another, and the history says how each ended; and "gizli toplam" hides the totals and the chart
on a view phone but not on the scorer's."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

import scoring
from cetele.models import Match
from tests.browser.live.test_live_view import LIVE, install_clock, ticks
from tests.browser.shell.test_accessibility import blocking_violations
from tests.factories import add_hand, make_match, sample_inputs

pytestmark = pytest.mark.django_db(transaction=True)


def join_as(page, match: Match, name: str) -> None:
    page.goto(f"/k/{match.join_token}/")
    page.locator(".seat-choices label", has_text=name).click()
    page.get_by_role("button", name="Bu benim").click()
    expect(page.get_by_text(f"Bu telefonda {name} olarak yazıyorsunuz")).to_be_visible()


def object_to(page, place: int, reason: str, note: str = "") -> None:
    """On the joined phone's sheet, tap the hand's place, then object to it."""
    page.locator("table.sheet tbody tr").nth(place - 1).locator("th a").click()
    form = page.locator("#objection")
    form.get_by_label(reason).check()
    if note:
        form.get_by_label("Kısaca (isteğe bağlı)").fill(note)
    form.get_by_role("button", name="İtiraz et").click()
    expect(form).to_contain_text("İtirazınız gönderildi")


def quiet_for_a_while(match: Match) -> None:
    """The match last changed five minutes ago: its pages poll every 8 s (the table is
    playing), not every 16 s as right after a save."""
    Match.objects.filter(pk=match.pk).update(touched_at=timezone.now() - timedelta(minutes=5))


def test_a_joined_phone_objects_the_scorer_sees_it_closes_one_corrects_another(phone, second_phone):
    scorer, scorer_console = phone
    player, player_console = second_phone
    match = make_match(hands=3, planned_hands=5)
    quiet_for_a_while(match)
    join_as(player, match, "Ayşe")
    install_clock(scorer)
    scorer.goto(f"/m/{match.edit_token}/")
    expect(scorer.locator("#sheet tr.objected")).to_have_count(0)

    object_to(player, 2, "Puan yanlış", note="40 değil 20")

    # The scorer's sheet brings it on its own poll: the row marked, the reason and who.
    ticks(scorer, 12)
    row = scorer.locator("#sheet tbody tr").nth(1)
    expect(row).to_have_class("objected", timeout=LIVE)
    card = scorer.locator(".objections-open")
    expect(card).to_contain_text("2. el — Ayşe: Puan yanlış (“40 değil 20”)")

    card.get_by_role("button", name="Doğru, kapat").click()
    expect(scorer.get_by_text("İtiraz kapatıldı: el olduğu gibi kaldı.")).to_be_visible()
    expect(scorer.locator("#sheet tr.objected")).to_have_count(0)
    expect(scorer.locator(".objections-open")).to_have_count(0)

    # Another objection, to the first hand; the scorer corrects that hand, which answers it.
    player.goto(f"/k/{match.join_token}/")
    object_to(player, 1, "Bitiş türü yanlış")
    scorer.reload()
    card = scorer.locator(".objections-open")
    expect(card).to_contain_text("1. el — Ayşe: Bitiş türü yanlış")
    card.get_by_role("link", name="Eli düzelt").click()
    scorer.locator("#hand-form").get_by_role("button", name="Eli kaydet").click()
    expect(scorer.get_by_text("1. el düzeltildi.")).to_be_visible(timeout=LIVE)
    expect(scorer.locator("#sheet tr.objected")).to_have_count(0)

    scorer.get_by_role("link", name="Geçmiş").click()
    objections = scorer.locator(".objection-list li")
    expect(objections).to_have_count(2)
    expect(objections.nth(0)).to_contain_text("Bitiş türü yanlış")
    expect(objections.nth(0)).to_contain_text("El düzeltildi")
    expect(objections.nth(1)).to_contain_text("Puan yanlış (“40 değil 20”)")
    expect(objections.nth(1)).to_contain_text("Doğru bulundu, kapatıldı")
    assert scorer_console.errors == [] and player_console.errors == []


def test_hidden_totals_hide_the_totals_and_the_chart_on_a_view_phone_not_the_scorers(
    phone, second_phone
):
    scorer, scorer_console = phone
    viewer, viewer_console = second_phone
    match = make_match(planned_hands=5)
    Match.objects.filter(pk=match.pk).update(hidden_totals=True)
    match.refresh_from_db()
    for index in range(2):
        add_hand(match, sample_inputs(finisher=index, remaining=30 + index))
    quiet_for_a_while(match)

    scorer.goto(f"/m/{match.edit_token}/")
    install_clock(viewer)
    viewer.goto(f"/v/{match.view_token}/")

    expect(scorer.locator("#sheet tfoot")).to_contain_text("Toplam")
    expect(scorer.locator("#sheet figure.chart")).to_be_visible()
    expect(scorer.locator("#sheet .standings")).to_be_visible()
    expect(viewer.locator("#sheet tbody tr")).to_have_count(2)  # the hands' own scores
    expect(viewer.locator("#sheet tbody tr").nth(0).locator("td").nth(1)).to_have_text("30")
    expect(viewer.locator("#sheet tfoot")).to_have_count(0)
    expect(viewer.locator("#sheet figure.chart")).to_have_count(0)
    expect(viewer.locator("#sheet .standings")).to_have_count(0)
    expect(viewer.locator(".hidden-totals")).to_contain_text("3. el kaydedilince")

    # The third save leaves the last two hands to play: the viewer's poll brings the totals.
    add_hand(match, sample_inputs(finisher=2, remaining=12))
    quiet_for_a_while(match)
    ticks(viewer, 12)
    expect(viewer.locator("#sheet tfoot")).to_contain_text("Toplam", timeout=LIVE)
    expect(viewer.locator("#sheet figure.chart")).to_be_visible()
    assert scorer_console.errors == [] and viewer_console.errors == []


def test_no_serious_accessibility_violation_on_the_objection_and_hidden_totals_pages(
    phone, second_phone
):
    scorer, _ = phone
    player, _ = second_phone
    match = make_match(hands=3, planned_hands=9)
    Match.objects.filter(pk=match.pk).update(hidden_totals=True)
    join_as(player, match, "Can")
    object_to(player, 2, "Başka", note="kafa atılmadı")
    assert blocking_violations(player) == []  # the hand's page, its objection and the form
    player.goto(f"/k/{match.join_token}/")
    assert blocking_violations(player) == []  # hidden totals, the open objection listed

    for url in (
        f"/m/{match.edit_token}/",
        f"/m/{match.edit_token}/el/{match.hands.all()[1].number}/",
        f"/m/{match.edit_token}/gecmis/",
        f"/m/{match.edit_token}/oyuncular/",
        f"/v/{match.view_token}/",
    ):
        assert scorer.goto(url).status == 200
        assert blocking_violations(scorer) == [], url


def test_a_long_unbroken_word_in_a_note_or_a_name_never_widens_a_phone_s_page(phone, second_phone):
    """Players type the names and the notes: one run of letters as long as a field allows
    wraps inside its card; no page of the match grows wider than the phone."""
    scorer, _scorer_console = phone
    player, console = second_phone
    long_name = "W" * 30
    match = Match.start(
        [long_name, "Ayşegül Gülşen Çağlayangil", "Can", "Deniz"],
        teams=True,
        planned_hands=5,
        rules=scoring.resolve_rules("cetele-standart"),
    )
    add_hand(match, sample_inputs(finisher=0, remaining=40))
    join_as(player, match, "Can")
    object_to(player, 1, "Puan yanlış", "x" * 140)
    pages = {
        player: [f"/k/{match.join_token}/", f"/k/{match.join_token}/el/1/"],
        scorer: [
            f"/m/{match.edit_token}/",
            f"/m/{match.edit_token}/el/1/",
            f"/m/{match.edit_token}/gecmis/",
            f"/m/{match.edit_token}/paylas/",
            f"/v/{match.view_token}/",
        ],
    }
    for page, paths in pages.items():
        for path in paths:
            page.goto(path)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, (path, width)
    assert console.errors == []
