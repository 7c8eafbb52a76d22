"""The link is the key: what the view link can't do, what no page leaks, how bad links are
answered, and the headers every match page carries.

Every URL under /m/<token>/ and /v/<token>/ is enumerated from the URLconf, so that a new
endpoint is covered without anyone remembering to add it here.
"""

import json
import os
import re
import subprocess
import sys
import time
from email.utils import parsedate_to_datetime
from pathlib import Path

import pytest
from django.test import Client, override_settings
from django.urls import resolve

from cetele.models import (
    Change,
    Drink,
    Hand,
    HousePreset,
    Match,
    Objection,
    Player,
    RetiredLink,
    TeaItem,
)
from cetele.sharing import links as sharing
from cetele.shell import wrong_passwords
from cetele.your_data.deletion import delete_match
from tests.factories import add_hand, form_data, make_match, new_match_data, sample_inputs
from tests.web.endpoints import KEYS, make_keys, routes
from tests.web.endpoints import fill as fill_route

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]

HTMX = {"HX-Request": "true"}
EVIL = "<script>alert(1)</script>"
TEA_TAP = {"seat": "0", "item": "0", "seen": "0", "action": "add", "rule": "own"}


def match_routes(prefix: str) -> list[str]:
    """Every route of the URLconf under `prefix` ("m" or "v") followed by a token."""
    found = [route for route in routes() if route.startswith(f"{prefix}/<token:token>/")]
    assert found, f"no routes under /{prefix}/"
    return found


def fill(route: str, token: str, number: int) -> str:
    url = "/" + route.replace("<token:token>", token).replace("<int:number>", str(number))
    assert "<" not in url, f"the test does not know how to fill {route}"
    return url


EDIT_ROUTES = match_routes("m")
VIEW_ROUTES = match_routes("v")


def snapshot() -> tuple:
    """Everything a request could change."""
    return (
        list(Match.objects.order_by("pk").values()),
        list(Player.objects.order_by("pk").values()),
        list(Hand.objects.order_by("pk").values()),
        list(Change.objects.order_by("pk").values()),
        list(Objection.objects.order_by("pk").values()),
        list(Drink.objects.order_by("pk").values()),
        list(TeaItem.objects.order_by("pk").values()),
    )


@pytest.fixture
def match() -> Match:
    match = make_match(hands=2)
    match.refresh_from_db()
    return match


def edit_urls(match: Match) -> list[str]:
    number = match.hands.first().number
    return [fill(route, match.edit_token, number) for route in EDIT_ROUTES]


def view_urls(match: Match) -> list[str]:
    number = match.hands.first().number
    return [fill(route, match.view_token, number) for route in VIEW_ROUTES]


# --- The view link can write nothing ------------------------------------------------------------


def test_the_urlconf_has_the_write_endpoints_this_file_relies_on():
    token = "A" * 22
    names = {resolve(fill(route, token, 1)).view_name for route in EDIT_ROUTES + VIEW_ROUTES}

    assert {
        "matches:hand_create",
        "matches:hand_edit",
        "matches:hand_delete",
        "matches:match_undo",
        "matches:match_players",
    } <= names
    assert {
        "sharing:match_rotate",
        "sharing:view_match",
        "sharing:view_poll",
        "sharing:view_export_csv",
    } <= names


def accepts(method: str, route: str) -> bool:
    """Whether a route takes GET or POST at all: ask it, with the edit token of a throw-away
    match (a POST there is a write endpoint)."""
    throwaway = make_match(hands=1)
    url = fill(route, throwaway.edit_token, throwaway.hands.first().number)
    return getattr(Client(), method)(url).status_code != 405


def accepts_post(route: str) -> bool:
    return accepts("post", route)


@pytest.mark.parametrize("route", EDIT_ROUTES)
def test_no_edit_url_answers_to_the_view_token(client, match, route):
    write, readable = accepts_post(route), accepts("get", route)
    url = fill(route, match.view_token, match.hands.first().number)
    before = snapshot()

    get = client.get(url)
    writes = {"kind": "edit", "seat_0": "X", "objection": "1", "hidden": "on", "reason": "score"}
    post = client.post(url, {**form_data(sample_inputs()), **writes})
    htmx_post = client.post(url, form_data(sample_inputs()), headers=HTMX)
    tea_tap = client.post(url, TEA_TAP)  # "+ çay" and the rule (cetele.tea): no hand's "action"

    # A read-only route says 405 to a POST whatever the token, so that tells nothing either.
    assert get.status_code == (404 if readable else 405)
    assert (
        post.status_code == htmx_post.status_code == tea_tap.status_code == (404 if write else 405)
    )
    assert snapshot() == before


def test_the_write_endpoints_are_found_by_asking_the_urlconf():
    writes = {route for route in EDIT_ROUTES if accepts_post(route)}

    assert writes >= {
        "m/<token:token>/el/",
        "m/<token:token>/el/<int:number>/duzelt/",
        "m/<token:token>/el/<int:number>/sil/",
        "m/<token:token>/geri-al/",
        "m/<token:token>/oyuncular/",
        "m/<token:token>/paylas/yenile/",
    }
    assert "m/<token:token>/" not in writes


@pytest.mark.parametrize("route", VIEW_ROUTES)
def test_no_view_url_accepts_a_write(client, match, route):
    url = fill(route, match.view_token, match.hands.first().number)
    before = snapshot()

    for method in (client.post, client.put, client.patch, client.delete):
        assert method(url).status_code == 405

    assert snapshot() == before


def test_the_edit_token_really_opens_the_edit_urls(client, match):
    # The other side of the tests above: the same URLs with the edit token exist.
    for url in edit_urls(match):
        assert client.get(url).status_code in (200, 204, 405), url


# --- Nothing under a match link changes on GET; every write needs the CSRF token ----------------


def test_opening_any_match_url_changes_nothing(client, match):
    before = snapshot()

    for url in edit_urls(match) + view_urls(match):
        client.get(url)
        client.get(url, headers=HTMX)
        client.head(url)

    assert snapshot() == before


def test_an_address_that_only_takes_a_form_opened_as_a_page_says_so():
    """Every address that only takes a form (a save, a deletion, "Geri al", a tea tap), opened as
    a page, as a browser without JavaScript shows it after a save and a phone's history opens it
    again: our page saying so and the way back, in the phone's language, not Django's blank 405;
    still 405 with its Allow header, out of search engines where it holds a key; nothing
    changed."""
    keys = make_keys(hands=2)
    before = snapshot()
    client = Client()
    form_only = []
    for route in routes():
        url = fill_route(route, keys)
        response = client.get(url)
        if response.status_code != 405:
            continue
        form_only.append(route)
        page = response.content.decode()
        assert "Bu adres bir sayfa değil" in page, url
        assert 'name="viewport"' in page and "Maçlarım" in page, url
        assert "POST" in response["Allow"], url
        if "<token:token>" in route:
            assert response["X-Robots-Tag"] == "noindex, nofollow", url
        assert client.head(url).status_code == 405
    assert "m/<token:token>/el/" in form_only and "m/<token:token>/geri-al/" in form_only
    assert snapshot() == before

    english = Client()
    english.cookies["django_language"] = "en"
    response = english.get(fill_route("m/<token:token>/el/", keys))
    assert response.status_code == 405
    assert "This address is not a page" in response.content.decode()


def test_every_write_without_the_csrf_token_is_refused(match):
    client = Client(enforce_csrf_checks=True)
    client.get(f"/m/{match.edit_token}/")  # sets the CSRF cookie, but we don't send the token
    before = snapshot()

    for url in edit_urls(match):
        response = client.post(url, {**form_data(sample_inputs()), "kind": "view"})
        assert response.status_code == 403, url

    assert snapshot() == before


def test_a_write_with_the_csrf_token_goes_through(match):
    client = Client(enforce_csrf_checks=True)
    client.get(f"/m/{match.edit_token}/")
    token = client.cookies["csrftoken"].value

    response = client.post(
        f"/m/{match.edit_token}/paylas/yenile/",
        {"kind": "view", "confirm": "on", "csrfmiddlewaretoken": token},
    )

    assert response.status_code == 302
    assert Match.objects.get().view_token != match.view_token


# --- Viewer pages never contain the edit token ---------------------------------------------------


def test_no_viewer_page_or_fragment_contains_the_edit_token_or_a_form(client, match):
    stale = f"?v={match.version - 1}"
    for url in view_urls(match):
        for variant in (url, url + stale):
            for headers in ({}, HTMX):
                response = client.get(variant, headers=headers)
                body = response.content.decode()
                assert response.status_code in (200, 204), variant
                assert match.edit_token not in body, variant
                assert "/m/" not in body, variant
                # The one form any page has is the language switch of base.html.
                actions = re.findall(r"<form[^>]*action=\"([^\"]*)\"", body)
                assert set(actions) <= {"/i18n/setlang/"}, variant
                assert "<textarea" not in body and 'type="submit" class="button' not in body


def test_viewer_pages_cover_every_view_route(client, match):
    # A guard for the test above: the poll really returned a fragment for a stale version.
    response = client.get(f"/v/{match.view_token}/poll/?v={match.version - 1}")

    assert response.status_code == 200
    assert b'id="sheet"' in response.content


def test_nothing_under_a_view_link_reveals_the_house_presets_keys(client):
    house = make_keys().house
    house.rules = {**house.rules, "name": house.name}  # as the editor saves it
    house.save()
    client.post("/yeni/", new_match_data(preset=house.choice_value))
    match = Match.objects.get(preset_slug=house.choice_value)
    add_hand(match, sample_inputs())

    bodies = {url: client.get(url).content.decode() for url in view_urls(match)}
    data = json.loads(bodies[f"/v/{match.view_token}/cetele.json"])

    for url, body in bodies.items():
        assert house.view_token not in body and house.edit_token not in body, url
    # The export names the preset and holds its rules, never its key.
    assert data["preset"] == "house"
    assert data["preset_name"] == house.name
    assert data["rules"] == match.rules


def test_the_export_names_a_built_in_preset_by_its_slug(client, match):
    data = json.loads(client.get(f"/v/{match.view_token}/cetele.json").content)

    assert (data["preset"], data["preset_name"]) == ("cetele-standart", match.rules_name)


# --- Bad links: the same 404, whoever asks and however often ------------------------------------


def test_unknown_and_malformed_tokens_get_the_very_same_404(client, match):
    unknown = "A" * 43
    urls = [
        f"/v/{unknown}/",
        f"/m/{unknown}/",
        f"/m/{match.view_token}/",  # a view token is no edit token
        "/v/short/",
        "/m/has%20space/",
        "/m/" + "A" * 65 + "/",
        f"/v/{unknown}/poll/",
        f"/m/{unknown}/el/1/",
        "/v/x/el/1/",
    ]

    responses = [client.get(url) for url in urls]

    assert [r.status_code for r in responses] == [404] * len(urls)
    assert len({r.content for r in responses}) == 1
    assert "Bu bağlantıda açılacak bir sayfa yok".encode() in responses[0].content


def test_a_missing_hand_under_a_good_link_is_a_plain_404_not_a_bad_link(client, match):
    for _ in range(wrong_passwords.BAD_LINK_LIMIT + 5):
        assert client.get(f"/v/{match.view_token}/el/999/").status_code == 404

    assert client.get(f"/v/{match.view_token}/").status_code == 200


# Where each kind of link starts, for misses of every kind.
KEY_PREFIXES = ["m", "v", "k", "ev", "masa", "masa/izle", "t", "tv"]


def misses_from_the_cafe(client, count: int = wrong_passwords.BAD_LINK_LIMIT * 5) -> None:
    """`count` misses of every kind of link, malformed ones among them, from the client's
    address (a café's one address: every phone on its Wi-Fi shares it)."""
    for index in range(count):
        prefix = KEY_PREFIXES[index % len(KEY_PREFIXES)]
        token = f"{'Z' * 42}{index % 10}" if index % 3 else f"bad{index}"
        response = client.get(f"/{prefix}/{token}/")
        assert response.status_code == 404 and "Retry-After" not in response.headers


def test_a_guesser_at_the_cafe_locks_no_phone_out_of_any_link(client):
    """A link is 256 bits from `secrets`: misses find nothing, so they are never refused nor
    held against the address. Every page of every kind of key opens after a hundred misses from
    that address, for a phone that never opened it (someone sent it, a QR code) and for the
    guesser itself."""
    keys = make_keys()
    misses_from_the_cafe(client)

    for route in routes():
        if not any(route.startswith(start) for start in KEYS):
            continue
        url = fill_route(route, keys)
        for phone in (Client(), client):
            status = phone.get(url).status_code
            assert status not in (404, 429) and status < 500, (url, status)
    # The join QR's link, a view link someone sent, the café's tournament page and table.
    for url in (
        f"/k/{keys.match.join_token}/",
        f"/v/{keys.match.view_token}/",
        f"/tv/{keys.tournament.view_token}/",
        f"/masa/izle/{keys.table.view_token}/",
    ):
        assert Client().get(url).status_code == 200, url


def test_a_poll_and_a_write_through_a_valid_link_go_through_after_misses(client, match):
    misses_from_the_cafe(client)

    poll = Client().get(f"/v/{match.view_token}/poll/?v={match.version}")
    saved = Client().post(f"/m/{match.edit_token}/el/", form_data(sample_inputs()))

    assert poll.status_code == 204 and saved.status_code == 302


def test_house_preset_links_are_keys_too_the_same_404(client):
    misses = [f"/ev/{'D' * 43}/", f"/ev/{'D' * 43}/duzenle/", "/ev/short/", "/ev/x/duzenle/"]

    responses = [client.get(url) for url in misses]

    assert [r.status_code for r in responses] == [404] * len(misses)
    assert len({r.content for r in responses}) == 1


# --- Links that worked once are no guesses ----------------------------------------------------


def test_a_rotated_view_link_is_answered_link_changed(client, match):
    old = match.view_token
    match.rotate_token("view")

    polls = [
        client.get(f"/v/{old}/poll/?v={match.version}", headers=HTMX)
        for _ in range(wrong_passwords.BAD_LINK_LIMIT * 2)
    ]
    page = client.get(f"/v/{old}/")
    editor = client.get(f"/m/{match.edit_token}/")

    # htmx 2 stops polling on 286; nothing is swapped; app.js says why on the event.
    assert {poll.status_code for poll in polls} == {286}
    assert polls[0].headers["HX-Reswap"] == "none"
    assert list(json.loads(polls[0].headers["HX-Trigger"])) == ["cetele:link-changed"]
    assert page.status_code == 410
    assert "Bu bağlantı değişti" in page.content.decode()
    assert page.headers["X-Robots-Tag"] == "noindex, nofollow"
    assert editor.status_code == 200


@pytest.mark.parametrize("kind", ["edit", "view"])
def test_rotated_edit_and_house_links_are_answered_link_changed_too(client, match, kind):
    house = HousePreset.objects.create(name="Ev", rules=match.rules, base_slug="cetele-standart")
    old_match = getattr(match, f"{kind}_token")
    old_house = getattr(house, f"{kind}_token")
    match.rotate_token(kind)
    house.rotate_token(kind)
    prefix = "m" if kind == "edit" else "v"
    house_url = f"/ev/{old_house}/duzenle/" if kind == "edit" else f"/ev/{old_house}/"

    responses = [client.get(f"/{prefix}/{old_match}/"), client.get(house_url)]

    assert [r.status_code for r in responses] == [410, 410]


def test_the_links_of_a_deleted_match_are_the_ordinary_404(client, match):
    edit, view = match.edit_token, match.view_token
    unknown = client.get(f"/m/{'U' * 43}/")
    delete_match(match)

    # A deletion leaves no trace (the same 404 as a link that never was; app.js stops polling
    # on a 404) for a browser that never had the link open.
    assert client.get(f"/v/{view}/poll/?v=1", headers=HTMX).status_code == 404
    page = client.get(f"/m/{edit}/")
    assert page.status_code == 404 and page.content == unknown.content


def test_retired_links_are_kept_as_digests_never_as_keys(match):
    old = match.view_token

    match.rotate_token("view")

    stored = list(RetiredLink.objects.values_list("digest", flat=True))
    assert stored == [RetiredLink.digest_of(old)] and old not in stored[0]


def test_the_seen_links_cookie_cannot_be_forged_or_reused_for_another_link(match):
    """Only a browser that had a deleted match open is told "Bu maç silindi": a mark it did not
    get from us (unsigned), or the mark of another link, tells nothing."""
    editor, forger = Client(), Client()
    editor.get(f"/m/{match.edit_token}/")
    forger.cookies[sharing.SEEN_COOKIE] = sharing.link_mark(match.view_token)  # unsigned
    view = match.view_token
    delete_match(match)

    assert forger.get(f"/v/{view}/").status_code == 404
    # The editor's cookie names the edit link only: the view link is the plain 404 for it.
    assert editor.get(f"/v/{view}/").status_code == 404
    assert editor.get(f"/m/{match.edit_token}/").status_code == 410


# --- House-preset keys, wherever they are named ------------------------------------------------


def house_key_lookups(key: str, table_token: str) -> list:
    """Every way a request can name a house preset's view key: (method, url, data)."""
    form = {**new_match_data(preset=f"house:{key}")}
    return [
        ("get", f"/ev/{key}/", None),
        ("get", f"/kurallar/yeni/?from={key}", None),
        ("get", f"/yeni/?preset=house:{key}", None),
        ("post", "/yeni/", form),
        ("post", "/yeni/kurallar/", {**form, "action": "adjust"}),
        ("post", f"/masa/{table_token}/mac/", form),
    ]


def test_every_way_of_naming_an_unknown_house_key_is_the_same_404(client):
    table = make_keys().table
    lookups = house_key_lookups("K" * 43, table.edit_token)

    responses = [getattr(client, method)(url, data) for method, url, data in lookups]

    assert [r.status_code for r in responses] == [404] * len(lookups)
    assert len({r.content for r in responses}) == 1


def test_after_many_misses_every_way_of_naming_a_real_house_key_still_works(client):
    keys = make_keys()
    for index in range(wrong_passwords.BAD_LINK_LIMIT * 2):
        client.get(f"/kurallar/yeni/?from={'J' * 42}{index % 10}")

    for method, url, data in house_key_lookups(keys.house.view_token, keys.table.edit_token):
        response = getattr(client, method)(url, data)
        assert response.status_code in (200, 302), url


def test_a_real_house_key_named_in_a_query_still_works(client):
    keys = make_keys()
    house = keys.house

    editor = client.get(f"/kurallar/yeni/?from={house.view_token}")
    start = client.post("/yeni/", new_match_data(preset=house.choice_value))

    assert editor.status_code == 200 and start.status_code == 302


def test_a_house_presets_links_can_be_rotated_from_its_edit_page(client):
    house = make_keys().house
    old_view, old_edit = house.view_token, house.edit_token
    page = client.get(f"/ev/{old_edit}/duzenle/").content.decode()
    assert f'action="/ev/{old_edit}/duzenle/yenile/"' in page

    client.post(f"/ev/{old_edit}/duzenle/yenile/", {"kind": "view", "confirm": "on"})
    house.refresh_from_db()
    response = client.post(
        f"/ev/{house.edit_token}/duzenle/yenile/", {"kind": "edit", "confirm": "on"}
    )

    house.refresh_from_db()
    assert house.view_token != old_view and house.edit_token != old_edit
    assert response.headers["Location"] == f"/ev/{house.edit_token}/duzenle/"
    assert client.get(f"/ev/{house.edit_token}/duzenle/").status_code == 200
    for url in (
        f"/ev/{old_edit}/duzenle/",
        f"/ev/{old_view}/",
        f"/kurallar/yeni/?from={old_view}",
        f"/yeni/?preset=house:{old_view}",
    ):
        assert client.get(url).status_code == 410, url


def test_the_house_rotation_needs_the_edit_link_and_a_known_kind(client):
    house = make_keys().house
    before = (house.view_token, house.edit_token)

    by_view = client.post(f"/ev/{house.view_token}/duzenle/yenile/", {"kind": "edit"})
    unknown_kind = client.post(
        f"/ev/{house.edit_token}/duzenle/yenile/", {"kind": "both", "confirm": "on"}
    )
    by_get = client.get(f"/ev/{house.edit_token}/duzenle/yenile/")

    house.refresh_from_db()
    assert (by_view.status_code, unknown_kind.status_code, by_get.status_code) == (404, 200, 405)
    assert (house.view_token, house.edit_token) == before


PROXY = "10.0.0.1"


@override_settings(
    SECURE_SSL_REDIRECT=True,
    SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"),
    TRUSTED_PROXIES=[PROXY],
)
def test_x_forwarded_proto_is_believed_only_from_our_proxy(client):
    direct = client.get("/", REMOTE_ADDR="198.51.100.9", HTTP_X_FORWARDED_PROTO="https")
    proxied = client.get("/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_PROTO="https")

    assert direct.status_code == 301 and direct.headers["Location"].startswith("https://")
    assert proxied.status_code == 200


@pytest.mark.parametrize(
    ("environment", "expected"),
    [
        ({"DJANGO_BEHIND_TLS_PROXY": "1"}, ["127.0.0.1", "::1"]),
        (
            {"DJANGO_BEHIND_TLS_PROXY": "1", "DJANGO_TRUSTED_PROXIES": "10.1.0.0/16"},
            ["10.1.0.0/16"],
        ),
        ({}, []),
        ({"DJANGO_TRUSTED_PROXIES": "nonsense"}, "ImproperlyConfigured"),
    ],
)
def test_trusted_proxies_default_to_the_loopback_behind_a_proxy_and_none_otherwise(
    environment, expected
):
    env = {
        key: value
        for key, value in os.environ.items()
        if key
        not in {"DJANGO_BEHIND_TLS_PROXY", "DJANGO_TRUSTED_PROXIES", "DJANGO_SETTINGS_MODULE"}
    }
    env.update(environment, DJANGO_SECRET_KEY="x", PYTHONPATH=str(ROOT))
    code = "import cetele.settings as s; print(s.TRUSTED_PROXIES)"

    result = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True
    )

    if expected == "ImproperlyConfigured":
        assert "ImproperlyConfigured" in result.stderr
    else:
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip() == str(expected)


def test_make_serve_binds_the_loopback_address_by_default():
    # Behind a proxy the app must be reachable only through it (docs/deployment.md).
    dry_run = subprocess.run(
        ["make", "-n", "serve"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout

    assert "scripts/serve.sh" in dry_run and "0.0.0.0" not in dry_run
    # nginx answers on BIND, gunicorn and nchan's publisher behind it on 127.0.0.1 only.
    serve = (ROOT / "scripts" / "serve.sh").read_text()
    assert "BIND=${BIND:-127.0.0.1:${PORT:-8000}}" in serve
    assert 'APPS+=("127.0.0.1:' in serve and "PUBLISH=127.0.0.1:" in serve
    assert "0.0.0.0" not in serve


# --- Headers -------------------------------------------------------------------------------


def test_every_match_page_is_noindex_no_referrer_and_edit_pages_are_never_cached(client, match):
    for url in edit_urls(match) + view_urls(match):
        response = client.get(url)
        if response.status_code == 405:
            continue
        assert response.headers["X-Robots-Tag"] == "noindex, nofollow", url
        assert response.headers["Referrer-Policy"] == "same-origin", url
        cache_control = response.headers["Cache-Control"]
        if url.startswith("/m/"):
            assert "no-store" in cache_control, url
        else:
            assert "private" in cache_control and "no-cache" in cache_control, url
        if response.headers["Content-Type"].startswith("text/html") and response.status_code == 200:
            body = response.content.decode()
            if "<html" in body:
                assert '<meta name="robots" content="noindex, nofollow">' in body, url
                if url.startswith("/m/"):
                    assert 'hx-history="false"' in body, url


def keyed_urls(match: Match, house: HousePreset) -> list[str]:
    """URLs that hold a key, answered by every kind of code: pages, a 404 for a missing hand
    under a good link, a bad link, a rotated link, the editor started from a house preset, the
    new-match form naming one."""
    return [
        f"/v/{match.view_token}/el/999/",
        f"/m/{match.edit_token}/el/999/",
        f"/m/{'Q' * 43}/",
        "/m/x/",
        f"/ev/{house.view_token}/",
        f"/ev/{house.edit_token}/duzenle/",
        f"/kurallar/yeni/?from={house.view_token}",
        f"/yeni/?preset=house:{house.view_token}",
        f"/yeni/?preset=house:{'Q' * 43}",
    ]


def test_every_response_whose_url_holds_a_key_is_noindex_and_never_cached(client, match):
    house = HousePreset.objects.create(name="Ev", rules=match.rules, base_slug="cetele-standart")

    for url in keyed_urls(match, house):
        response = client.get(url)
        assert response.headers.get("X-Robots-Tag") == "noindex, nofollow", url
        assert "no-store" in response.headers["Cache-Control"] or (
            "private" in response.headers["Cache-Control"]
        ), url


def test_a_refusal_under_a_key_carries_the_privacy_headers_too(client, match):
    response = client.generic(
        "POST",
        f"/m/{match.edit_token}/el/",
        b"finisher=0",
        content_type="application/x-www-form-urlencoded; charset=latin-1",
    )

    assert response.status_code == 400
    assert response.headers["X-Robots-Tag"] == "noindex, nofollow"
    assert "no-store" in response.headers["Cache-Control"]
    assert match.edit_token not in response.content.decode()


@pytest.mark.parametrize("url", ["/", "/kurallar/", "/yeni/?preset=cetele-standart"])
def test_pages_without_a_key_may_be_indexed(client, url):
    assert "X-Robots-Tag" not in client.get(url).headers


def test_match_pages_have_a_csp_without_inline_scripts_or_eval(client, match):
    for url in (
        f"/m/{match.edit_token}/",
        f"/v/{match.view_token}/",
        f"/m/{match.edit_token}/paylas/",
    ):
        response = client.get(url)
        csp = response.headers["Content-Security-Policy"]
        body = response.content.decode()

        assert "script-src 'self'" in csp and "unsafe" not in csp
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", body), url
        assert not re.search(r"\son[a-z]+=", body), url
        assert "style=" not in body, url
        assert '"allowEval": false' in body


# --- Player names are escaped everywhere -----------------------------------------------------


def test_a_script_in_a_player_name_is_escaped_on_every_page_and_fragment(client):
    match = make_match(hands=2)
    match.rename_players([EVIL, "Ayşe", f'"{EVIL}', "Deniz'"])
    match.refresh_from_db()
    stale = f"?v={match.version - 1}"
    urls = [u for u in edit_urls(match) + view_urls(match) if not u.endswith((".csv", ".json"))]
    urls += [u + stale for u in urls if u.endswith("/poll/")]

    for url in urls:
        for headers in ({}, HTMX):
            body = client.get(url, headers=headers).content.decode()
            assert "<script>alert" not in body, url
    html = client.get(f"/v/{match.view_token}/").content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    htmx_save = client.post(
        f"/m/{match.edit_token}/el/", form_data(sample_inputs()), headers=HTMX
    ).content.decode()
    assert "<script>alert" not in htmx_save and "&lt;script&gt;" in htmx_save
    # The preview while typing (_hand_fields.html#hand_preview, every field's errors out of band): a
    # hand that scores, and one with an error naming the player.
    typing = HTMX | {"HX-Target": "hand-preview"}
    scores = form_data(sample_inputs(), action="preview")
    wrong = form_data(sample_inputs(finisher=1), action="preview")
    wrong["p0-remaining"] = "300"
    previews = [
        client.post(f"/m/{match.edit_token}/el/", data, headers=typing).content.decode()
        for data in (scores, wrong)
    ]
    for body in previews:
        assert "<script>alert" not in body and "&lt;script&gt;alert(1)&lt;/script&gt;" in body
    assert "<strong>" in previews[0] and "&quot;&lt;script&gt;" in previews[0]  # every name
    assert "errorlist" in previews[1]


def test_a_script_in_a_player_name_stays_inert_in_the_exports(client):
    match = make_match(hands=1)
    match.rename_players([EVIL, "B", "C", "D"])

    csv_response = client.get(f"/v/{match.view_token}/cetele.csv")
    json_response = client.get(f"/v/{match.view_token}/cetele.json")

    for response in (csv_response, json_response):
        assert not response.headers["Content-Type"].startswith("text/html")
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Content-Disposition"].startswith("attachment")
    assert b"<script" not in json_response.content
    assert json.loads(json_response.content)["players"][0]["name"] == EVIL
    assert EVIL in csv_response.content.decode("utf-8-sig")  # data, never rendered as HTML


def test_the_token_on_the_page_and_on_a_save_s_answer_is_accepted(match):
    client = Client(enforce_csrf_checks=True)
    page = client.get(f"/m/{match.edit_token}/").content.decode()
    (token,) = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', page))  # one a page
    played = match.hands.count()

    data = {**form_data(sample_inputs()), "csrfmiddlewaretoken": token, "position": played + 1}
    answer = client.post(f"/m/{match.edit_token}/el/", data, headers=HTMX)
    assert answer.status_code == 200 and match.hands.count() == played + 1

    (again,) = set(
        re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', answer.content.decode())
    )
    assert again != token
    data = {**form_data(sample_inputs()), "csrfmiddlewaretoken": again, "position": played + 2}
    assert client.post(f"/m/{match.edit_token}/el/", data, headers=HTMX).status_code == 200
    assert match.hands.count() == played + 2


def cache_directives(response) -> set[str]:
    return set(response["Cache-Control"].split(", "))


def test_an_edit_link_s_answers_expire_at_once_and_a_view_link_s_are_revalidated(client):
    """What a browser or a proxy is told: the edit link's pages are never kept (the edit link
    must not linger in a cache), the view link's may be kept by the phone alone and are asked
    for again each time."""
    match = make_match(hands=1)

    for url in (f"/m/{match.edit_token}/", f"/m/{match.edit_token}/el/1/"):
        response = client.get(url)
        assert cache_directives(response) == {
            "max-age=0",
            "no-cache",
            "no-store",
            "must-revalidate",
            "private",
        }, url
        expires = parsedate_to_datetime(response["Expires"]).timestamp()
        assert abs(expires - time.time()) < 5, url  # already past: never fresh
    for url in (f"/v/{match.view_token}/", f"/v/{match.view_token}/cetele.csv"):
        response = client.get(url)
        assert cache_directives(response) == {"private", "no-cache"}, url
        assert "Expires" not in response, url
