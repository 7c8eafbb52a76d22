"""At a café where another phone has been guessing links from the same address: the match this
phone just started opens and reaches "Maçlarım", and the edit link it has just rotated opens
(the old one says it changed), never refused. And a forged "forget this match" link wipes
nothing from the phone."""

import secrets

import pytest
from playwright.sync_api import expect

from cetele.models import Match
from cetele.shell import wrong_passwords
from tests.browser.sheet import start_match
from tests.browser.shell.test_offline import kept_for_offline

pytestmark = pytest.mark.django_db(transaction=True)

TOO_MANY = "Çok fazla"  # the start of any refusal for too many of something


def guess_from_the_same_address(guesser) -> None:
    """Another phone on the café's Wi-Fi (one address for all) opens 25 links that do not exist."""
    statuses = [
        guesser.request.get(f"/m/{secrets.token_urlsafe(32)}/").status
        for _ in range(wrong_passwords.BAD_LINK_LIMIT + 5)
    ]
    assert set(statuses) == {404}


@pytest.mark.races
def test_a_match_started_after_another_phone_guessed_opens_and_is_listed(phone, second_phone):
    page, console = phone
    guesser, _ = second_phone
    guess_from_the_same_address(guesser)

    start_match(page, ["Zerrin", "Ayşe"], hands=5)

    expect(page.get_by_text(TOO_MANY)).to_have_count(0)
    expect(page.get_by_role("heading", name="Çetele: Zerrin, Ayşe")).to_be_attached()
    page.goto("/")
    expect(page.locator("[data-my-matches] li a")).to_have_attribute(
        "href", f"/m/{Match.objects.get().edit_token}/"
    )
    assert console.errors == []


@pytest.mark.races
def test_the_edit_link_just_rotated_opens_after_another_phone_guessed(phone, second_phone):
    page, console = phone
    guesser, _ = second_phone
    start_match(page, ["Zerrin", "Ayşe"], hands=5)
    old = Match.objects.get().edit_token
    guess_from_the_same_address(guesser)

    page.goto(f"/m/{old}/paylas/")
    page.get_by_label("Evet, eski bağlantı çalışmasın").check()
    page.get_by_role("button", name="Yeni düzenleme bağlantısı").click()

    new = Match.objects.get().edit_token
    assert new != old
    expect(page.get_by_text("Yeni düzenleme bağlantısı hazır")).to_be_visible()
    page.goto(f"/m/{new}/")
    expect(page.get_by_text(TOO_MANY)).to_have_count(0)
    expect(page.get_by_role("heading", name="Çetele: Zerrin, Ayşe")).to_be_attached()
    assert page.request.get(f"/m/{old}/").status == 410
    assert console.errors == []


# --- ?silindi= is believed only from the app's own deletion answer ---------------------------


@pytest.mark.worker  # the page kept for offline use stays kept
def test_a_forged_forget_link_from_a_viewer_wipes_nothing_from_the_scorers_phone(
    phone, second_phone
):
    """The view page carries the match's phone-side key: whoever holds only the view link could
    send the scorer /?silindi=<key>. Opening it must leave the match in "Maçlarım" and its page
    kept for offline use."""
    page, console = phone
    viewer, _ = second_phone
    start_match(page, ["Zerrin", "Ayşe"], hands=5)
    match = Match.objects.get()
    kept_for_offline(page)
    viewer.goto(f"/v/{match.view_token}/")
    key = viewer.locator("[data-match-key]").first.get_attribute("data-match-key")

    page.goto(f"/?silindi={key}")

    expect(page.locator("[data-my-matches] li a")).to_have_attribute(
        "href", f"/m/{match.edit_token}/"
    )
    page.reload()
    expect(page.locator("[data-my-matches] li")).to_have_count(1)
    assert page.evaluate(
        """async (path) => !!(await (await caches.open("cetele-pages")).match(path))""",
        f"/m/{match.edit_token}/",
    )
    assert console.errors == []
