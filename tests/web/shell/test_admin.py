"""The operator's door: Django's admin, absent unless DJANGO_ADMIN_PATH turns it on, then behind
Django's login; it lists, searches, counts and deletes, and never shows a link in full.

The test settings are the production default (admin off, no auth/session tables). The tests of
the admin turn it on the way DJANGO_ADMIN_PATH does (settings.admin_settings) and create its
tables once, as an operator's `migrate` would; the apps stay uninstalled for every other test.
"""

import os
import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.test import override_settings

import cetele.urls  # noqa: F401  (imported here with the admin off, as the app runs)
import scoring
from cetele.models import Hand, HousePreset, Match, Table, TablePlayer
from cetele.settings import admin_settings
from tests.factories import make_match

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]
ADMIN_PATH = "yonetim-test/"
ADMIN = "/" + ADMIN_PATH
ADMIN_APPS = {"admin", "auth", "contenttypes", "sessions"}
PASSWORD = "kapı-şifresi-uzun-1"


def operator_settings() -> dict:
    on = admin_settings(
        ADMIN_PATH, settings.INSTALLED_APPS, settings.MIDDLEWARE, settings.TEMPLATES
    )
    return {**on, "ROOT_URLCONF": "tests.admin_urls"}


@pytest.fixture(scope="session")
def admin_tables(django_db_setup, django_db_blocker) -> None:
    with django_db_blocker.unblock(), override_settings(**operator_settings()):
        call_command("migrate", verbosity=0)


@pytest.fixture
def admin_on(admin_tables):
    with override_settings(**operator_settings()):
        yield


@pytest.fixture
def operator(admin_on, client):
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_superuser("isletmeci", "", PASSWORD)
    assert client.login(username="isletmeci", password=PASSWORD)
    return client


def a_house_preset(name: str = "Zerrin'in kuralı") -> HousePreset:
    return HousePreset.objects.create(
        name=name, rules=scoring.resolve_rules("cetele-standart"), base_slug="cetele-standart"
    )


def a_table(name: str = "Perşembe masası") -> Table:
    table = Table.objects.create(name=name)
    TablePlayer.objects.create(table=table, place=0, name="Zerrin")
    return table


def assert_no_full_token(html: str, *objects) -> None:
    for obj in objects:
        for token in (obj.edit_token, obj.view_token):
            assert token not in html
            assert token[:20] not in html


# --- Off (the default) -------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/admin/", ADMIN, ADMIN + "login/", ADMIN + "cetele/match/"])
def test_off_nothing_of_the_admin_is_reachable(client, path):
    assert client.get(path).status_code == 404


def test_off_no_admin_auth_session_or_contenttypes_app_and_no_table_for_them():
    loader = MigrationLoader(connection, ignore_no_migrations=True)

    assert not any(apps.is_installed(f"django.contrib.{app}") for app in ADMIN_APPS)
    assert ADMIN_APPS.isdisjoint(loader.migrated_apps)
    assert "django.contrib.sessions.middleware.SessionMiddleware" not in settings.MIDDLEWARE
    assert settings.ADMIN_PATH == ""


def run_with_env(code: str, **env) -> subprocess.CompletedProcess:
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings", **env}
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup()\n" + code],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )


RESOLVE = """
from django.apps import apps
from django.urls import Resolver404, resolve
try:
    print(resolve("/yonetim-7f3a/").app_name, apps.is_installed("django.contrib.sessions"))
except Resolver404:
    print("404", apps.is_installed("django.contrib.sessions"))
"""


def test_the_environment_variable_turns_it_on_at_the_chosen_path_and_unset_leaves_it_off():
    on = run_with_env(RESOLVE, DJANGO_ADMIN_PATH="/yonetim-7f3a/")
    off = run_with_env(RESOLVE, DJANGO_ADMIN_PATH="")

    assert on.stdout.split() == ["admin", "True"], on.stderr
    assert off.stdout.split() == ["404", "False"], off.stderr


@pytest.mark.parametrize("path", ["m/yonetim", "v", "ev/x", "a b", "../admin", "yonetim?x=1"])
def test_a_path_that_would_clash_with_the_app_or_is_not_a_plain_path_is_refused(path):
    result = run_with_env("", DJANGO_ADMIN_PATH=path)

    assert result.returncode != 0
    assert "DJANGO_ADMIN_PATH" in result.stderr


# --- On: behind Django's login -------------------------------------------------------------


@pytest.mark.parametrize("page", ["", "cetele/match/", "cetele/housepreset/", "cetele/table/"])
def test_on_every_page_asks_for_the_login_first(client, admin_on, page):
    response = client.get(ADMIN + page)

    assert response.status_code == 302
    assert response["Location"].startswith(ADMIN + "login/")


def test_a_wrong_password_does_not_open_it(client, admin_on):
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_superuser("isletmeci", "", PASSWORD)

    response = client.post(
        ADMIN + "login/", {"username": "isletmeci", "password": "yanlis", "next": ADMIN}
    )

    assert response.status_code == 200
    assert client.get(ADMIN).status_code == 302


def test_repeated_wrong_passwords_are_slowed_down_like_bad_links(client, admin_on):
    for _ in range(20):
        client.post(ADMIN + "login/", {"username": "x", "password": "y"})

    response = client.get(ADMIN + "login/")

    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0


def test_wrong_admin_passwords_do_not_lock_the_address_out_of_its_matches(client, admin_on):
    """The operator mistyping at the café counts on the admin's own counter."""
    from cetele.shell.wrong_passwords import BAD_LINK_LIMIT
    from tests.factories import make_match

    match = make_match()
    for _ in range(BAD_LINK_LIMIT):
        client.post(ADMIN + "login/", {"username": "x", "password": "y"})

    assert client.get(ADMIN + "login/").status_code == 429
    assert client.get(f"/m/{match.edit_token}/").status_code == 200
    assert client.get(f"/m/{'Z' * 43}/").status_code == 404


def test_bad_links_from_the_cafe_do_not_lock_the_operator_out(client, admin_on):
    from cetele.shell.wrong_passwords import BAD_LINK_LIMIT

    for index in range(BAD_LINK_LIMIT * 2):
        assert client.get(f"/m/{'Z' * 42}{index % 10}/").status_code == 404

    assert client.get(ADMIN + "login/").status_code == 200


# --- Whose wrong passwords are counted: the client's address, as our proxy saw it -------------

PROXY = "10.0.0.1"
BEHIND_PROXY = override_settings(
    SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"), TRUSTED_PROXIES=[PROXY]
)


def wrong_passwords(client, **headers) -> None:
    from cetele.shell.wrong_passwords import BAD_LINK_LIMIT

    for index in range(BAD_LINK_LIMIT):
        extra = {key: value.format(index=index) for key, value in headers.items()}
        client.post(ADMIN + "login/", {"username": "x", "password": "y"}, **extra)


def test_the_forwarded_address_is_ignored_unless_we_are_behind_our_proxy(client, admin_on):
    wrong_passwords(client, HTTP_X_FORWARDED_FOR="198.51.100.{index}")

    # Not behind a proxy: the header is the client's own words, REMOTE_ADDR counts.
    assert client.get(ADMIN + "login/").status_code == 429


@BEHIND_PROXY
def test_behind_our_proxy_the_address_it_saw_is_counted(client, admin_on):
    wrong_passwords(client, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="forged, 203.0.113.5")

    blocked = client.get(ADMIN + "login/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.5")
    other = client.get(ADMIN + "login/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.6")
    assert (blocked.status_code, other.status_code) == (429, 200)


@BEHIND_PROXY
def test_a_client_that_bypasses_the_proxy_cannot_pick_its_address_by_header(client, admin_on):
    # The server is reachable without the proxy (bound to 0.0.0.0): a new X-Forwarded-For with
    # each guess must not make each guess look like a new client.
    wrong_passwords(client, REMOTE_ADDR="198.51.100.9", HTTP_X_FORWARDED_FOR="192.0.2.{index}")

    again = client.get(
        ADMIN + "login/", REMOTE_ADDR="198.51.100.9", HTTP_X_FORWARDED_FOR="192.0.2.200"
    )
    assert again.status_code == 429


@BEHIND_PROXY
def test_wrong_passwords_sent_in_a_victims_name_do_not_lock_the_victim(client, admin_on):
    victim = "203.0.113.77"
    wrong_passwords(client, REMOTE_ADDR="198.51.100.9", HTTP_X_FORWARDED_FOR=victim)

    mine = client.get(ADMIN + "login/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=victim)
    assert mine.status_code == 200


def test_logging_in_opens_it_and_the_session_cookie_goes_to_the_admin_only(client, admin_on):
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_superuser("isletmeci", "", PASSWORD)

    response = client.post(
        ADMIN + "login/", {"username": "isletmeci", "password": PASSWORD, "next": ADMIN}
    )

    assert response.status_code == 302
    assert client.get(ADMIN).status_code == 200
    cookie = response.cookies[settings.SESSION_COOKIE_NAME]
    assert cookie["path"] == ADMIN
    assert cookie["httponly"]
    assert cookie["max-age"] == 8 * 3600


def test_the_front_page_counts_what_the_server_holds(operator):
    make_match(hands=13)
    make_match(hands=2)
    a_house_preset()
    a_table()

    html = operator.get(ADMIN).content.decode()

    counts = dict(re.findall(r"<th scope=\"row\">([^<]+)</th><td>(\d+)</td>", html))
    assert counts["Maçlar"] == "2"
    assert counts["Biten maçlar"] == "1"
    assert counts["Süren maçlar"] == "1"
    assert counts["Eller"] == "15"
    assert counts["Masalar"] == "1"
    assert counts["Ev kuralları"] == "1"
    assert counts["Oyuncu adları"] == "9"
    assert counts["Bir yıldır kullanılmayan maçlar"] == "0"


# --- Listing and searching, never a full link ------------------------------------------------


def test_matches_are_listed_with_players_and_state_and_only_a_prefix_of_each_link(operator):
    finished = make_match(hands=13)
    going = make_match(hands=2)

    html = operator.get(ADMIN + "cetele/match/").content.decode()

    assert "Ali, Ayşe, Can, Deniz" in html
    assert "13 / 13" in html and "2 / 13" in html
    assert f"{finished.edit_token[:4]}…" in html
    assert_no_full_token(html, finished, going)


def test_matches_filter_by_state(operator):
    finished = make_match(hands=13)
    going = make_match(hands=2)

    done = operator.get(ADMIN + "cetele/match/?durum=bitti").content.decode()
    playing = operator.get(ADMIN + "cetele/match/?durum=suruyor").content.decode()

    assert f"#{finished.pk}<" in done and f"#{going.pk}<" not in done
    assert f"#{going.pk}<" in playing and f"#{finished.pk}<" not in playing


def test_matches_are_found_by_a_players_name_but_never_by_a_token(operator):
    zerrin = make_match()
    zerrin.rename_players(["Zerrin", "B", "C", "D"])
    other = make_match()

    by_name = operator.get(ADMIN + "cetele/match/", {"q": "Zerrin"}).content.decode()
    by_token = operator.get(ADMIN + "cetele/match/", {"q": other.edit_token}).content.decode()

    assert f"#{zerrin.pk}<" in by_name and f"#{other.pk}<" not in by_name
    assert f"#{other.pk}<" not in by_token


def test_matches_filter_by_date(operator):
    match = make_match()
    year = match.created_at.year

    html = operator.get(ADMIN + f"cetele/match/?created_at__year={year}").content.decode()

    assert f"#{match.pk}<" in html


def test_matches_filter_by_last_use(operator):
    from django.utils import timezone

    stale = make_match()
    Match.objects.filter(pk=stale.pk).update(touched_at=timezone.now() - timedelta(days=400))
    fresh = make_match()
    since = (timezone.now() - timedelta(days=7)).isoformat()

    html = operator.get(ADMIN + "cetele/match/", {"touched_at__gte": since}).content.decode()

    assert f"#{fresh.pk}<" in html and f"#{stale.pk}<" not in html
    assert "son kullanım" in html


@pytest.mark.parametrize("kind", ["match", "housepreset", "table"])
def test_a_detail_page_is_read_only_and_shows_no_full_link(operator, kind):
    match = make_match(hands=1)
    house = a_house_preset()
    table = a_table()
    Match.objects.filter(pk=match.pk).update(preset_slug=house.choice_value, table=table)
    obj = {"match": match, "housepreset": house, "table": table}[kind]

    response = operator.get(ADMIN + f"cetele/{kind}/{obj.pk}/change/")

    html = response.content.decode()
    assert response.status_code == 200
    assert_no_full_token(html, match, house, table)
    assert 'type="submit" name="_save"' not in html
    assert "<textarea" not in html


def test_presets_and_tables_are_listed_and_searched_by_name(operator):
    house = a_house_preset("Zerrin'in kuralı")
    a_house_preset("Başka kural")
    table = a_table("Perşembe masası")

    presets = operator.get(ADMIN + "cetele/housepreset/", {"q": "Zerrin"}).content.decode()
    tables = operator.get(ADMIN + "cetele/table/", {"q": "Zerrin"}).content.decode()

    assert "Zerrin&#x27;in kuralı" in presets and "Başka kural" not in presets
    assert "Perşembe masası" in tables
    assert_no_full_token(presets + tables, house, table)


def test_nothing_can_be_added_or_changed_in_the_admin(operator):
    match = make_match()

    add = operator.get(ADMIN + "cetele/match/add/")
    change = operator.post(ADMIN + f"cetele/match/{match.pk}/change/", {"planned_hands": "1"})

    assert add.status_code == 403
    assert change.status_code == 403
    assert Match.objects.get(pk=match.pk).planned_hands == 13


def test_admin_pages_run_no_inline_script(operator):
    match = make_match(hands=1)

    for page in ("", "cetele/match/", f"cetele/match/{match.pk}/change/"):
        html = operator.get(ADMIN + page).content.decode()
        for attributes, body in re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S):
            assert "src=" in attributes or 'type="application/json"' in attributes, page
            assert not body.strip() or "application/json" in attributes, page


# --- Deleting --------------------------------------------------------------------------------


def test_deleting_a_match_in_the_admin_removes_it_and_logs_no_name(operator, client):
    from django.contrib.admin.models import LogEntry

    match = make_match(hands=3)
    match.rename_players(["Zerrin", "Ayşe", "Can", "Deniz"])
    other = make_match()

    confirm = operator.get(ADMIN + f"cetele/match/{match.pk}/delete/")
    response = operator.post(ADMIN + f"cetele/match/{match.pk}/delete/", {"post": "yes"})

    assert confirm.status_code == 200
    assert_no_full_token(confirm.content.decode(), match)
    assert response.status_code == 302
    assert not Match.objects.filter(pk=match.pk).exists()
    assert not Hand.objects.filter(match_id=match.pk).exists()
    assert Match.objects.filter(pk=other.pk).exists()
    assert client.get(f"/m/{match.edit_token}/").status_code == 404
    assert client.get(f"/v/{match.view_token}/").status_code == 404
    entry = LogEntry.objects.get()
    assert entry.object_repr == f"match #{match.pk}"
    assert "Zerrin" not in entry.object_repr + entry.change_message


def test_deleting_several_presets_at_once_logs_numbers_only(operator):
    from django.contrib.admin.models import LogEntry

    doomed = [a_house_preset("Zerrin'in kuralı"), a_house_preset("Zerrin'in ikinci kuralı")]
    kept = a_house_preset("Kalan kural")

    response = operator.post(
        ADMIN + "cetele/housepreset/",
        {
            "action": "delete_selected",
            "_selected_action": [str(house.pk) for house in doomed],
            "post": "yes",
        },
    )

    assert response.status_code == 302
    assert list(HousePreset.objects.all()) == [kept]
    assert sorted(LogEntry.objects.values_list("object_repr", flat=True)) == sorted(
        f"house preset #{house.pk}" for house in doomed
    )


def test_deleting_a_table_in_the_admin_keeps_its_matches(operator):
    table = a_table()
    match = make_match()
    Match.objects.filter(pk=match.pk).update(table=table)

    confirm = operator.get(ADMIN + f"cetele/table/{table.pk}/delete/").content.decode()
    operator.post(ADMIN + f"cetele/table/{table.pk}/delete/", {"post": "yes"})

    assert_no_full_token(confirm, table, match)

    assert not Table.objects.filter(pk=table.pk).exists()
    assert Match.objects.get(pk=match.pk).table is None
