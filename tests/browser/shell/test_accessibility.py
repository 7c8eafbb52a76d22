"""axe-core (bundled by axe-playwright-python) on every page, in the phone browser: no serious
or critical violation anywhere, including the states a user reaches by tapping (a form with its
errors, a live preview, a finished match)."""

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.urls import reverse

import scoring
from cetele.models import HousePreset
from tests.factories import make_match

pytestmark = pytest.mark.django_db(transaction=True)

BLOCKING = {"serious", "critical"}


def blocking_violations(page) -> list[str]:
    results = Axe().run(page)
    return [
        f"{violation['id']} ({violation['impact']}): {violation['help']} — "
        + "; ".join(node["target"][0] for node in violation["nodes"][:3] if node["target"])
        for violation in results.response["violations"]
        if violation["impact"] in BLOCKING
    ]


def pages() -> dict[str, str]:
    match = make_match(hands=5)
    finished = make_match(hands=3, planned_hands=3)
    house = HousePreset.objects.create(
        name="Bizim masa",
        rules=scoring.resolve_rules("cetele-standart") | {"name": "Bizim masa"},
        base_slug="cetele-standart",
    )
    edit, view = match.edit_token, match.view_token
    return {
        "home": reverse("matches:home"),
        "new match": reverse("matches:match_create"),
        "rules list": reverse("house_rules:rules_list"),
        "rules detail": reverse("house_rules:rules_detail", args=["cetele-standart"]),
        "preset editor": reverse("house_rules:preset_new"),
        "house preset": reverse("house_rules:house_detail", args=[house.view_token]),
        "house preset editor": reverse("house_rules:house_edit", args=[house.edit_token]),
        "match page with hands": reverse("matches:match_detail", args=[edit]),
        "finished match": reverse("matches:match_detail", args=[finished.edit_token]),
        "hand page": reverse("matches:hand_detail", args=[edit, 2]),
        "delete a hand": reverse("matches:hand_delete", args=[edit, 2]),
        "history": reverse("matches:match_history", args=[edit]),
        "players": reverse("matches:match_players", args=[edit]),
        "match rules": reverse("matches:match_rules", args=[edit]),
        "share": reverse("sharing:match_share", args=[edit]),
        "viewer's match page": reverse("sharing:view_match", args=[view]),
        "viewer's hand page": reverse("sharing:view_hand", args=[view, 2]),
        "viewer's rules": reverse("matches:view_rules", args=[view]),
    }


PAGES = [
    "home",
    "new match",
    "rules list",
    "rules detail",
    "preset editor",
    "house preset",
    "house preset editor",
    "match page with hands",
    "finished match",
    "hand page",
    "delete a hand",
    "history",
    "players",
    "match rules",
    "share",
    "viewer's match page",
    "viewer's hand page",
    "viewer's rules",
]


@pytest.mark.parametrize("name", PAGES)
def test_no_serious_accessibility_violation(phone, name):
    page, console = phone
    url = pages()[name]

    response = page.goto(url)

    assert response.status == 200, url
    assert blocking_violations(page) == []


def test_no_serious_accessibility_violation_in_a_form_showing_its_errors(phone):
    page, _ = phone
    match = make_match(hands=2)
    page.goto(reverse("matches:match_detail", args=[match.edit_token]))

    page.get_by_role("button", name="Eli kaydet").click()
    page.locator(".hand-form .errorlist, .hand-form .message.error").first.wait_for()

    assert blocking_violations(page) == []


def test_no_serious_accessibility_violation_with_the_live_preview_shown(phone):
    page, _ = phone
    match = make_match(hands=2)
    page.goto(reverse("matches:match_detail", args=[match.edit_token]))

    page.locator("#seat-0 .finish").click()
    page.locator("#hand-preview details, #hand-preview .errorlist").first.wait_for()
    page.locator("#seat-1 details.more summary").click()  # a player's "more" opened too

    assert blocking_violations(page) == []


def test_no_serious_accessibility_violation_when_adjusting_rules_for_one_match(phone):
    page, _ = phone
    page.goto(reverse("matches:match_create"))
    page.fill("#id_name_1", "Ali")
    page.fill("#id_name_2", "Ayşe")

    page.get_by_role("button", name="Kuralları bu maç için değiştir").click()
    page.wait_for_url("**" + reverse("house_rules:match_adjust"))

    assert blocking_violations(page) == []


def test_the_check_itself_catches_a_violation(phone):
    """Guard: an unlabelled field and an image without alt text must be reported."""
    page, _ = phone
    page.goto(reverse("matches:home"))

    page.set_content('<html lang="tr"><title>x</title><img src="/x.png"><input type="text">')

    assert len(blocking_violations(page)) >= 2


@pytest.mark.parametrize("name", ["home", "match page with hands", "hand page", "share"])
def test_no_serious_accessibility_violation_in_dark_mode(phone, name):
    page, console = phone
    page.emulate_media(color_scheme="dark")
    url = pages()[name]

    page.goto(url)

    assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    assert blocking_violations(page) == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_accessibility_violation_on_the_hand_form_at_320_px(
    browser, live_server, scheme
):
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": 320, "height": 640}, is_mobile=True
    )
    page = context.new_page()
    try:
        page.emulate_media(color_scheme=scheme)
        match = make_match(hands=2)
        page.goto(reverse("matches:match_detail", args=[match.edit_token]))
        page.locator("#seat-0 .finish").click()
        page.locator("#seat-1 details.more summary").click()
        page.locator("#seat-1").get_by_role("button", name="+ Ceza ekle").click()
        page.locator("#id_p1-pen-0-kind").wait_for()

        assert blocking_violations(page) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= 320
    finally:
        context.close()
