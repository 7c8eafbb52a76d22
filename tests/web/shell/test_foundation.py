"""The skeleton: home page, language switch, static files, security headers, database set-up."""

import os
import re
import subprocess
import sys

import pytest
from django.apps import apps
from django.conf import settings
from django.db import connection

pytestmark = pytest.mark.django_db


def test_home_page_is_turkish_by_default(client):
    response = client.get("/")

    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="tr">' in html
    assert "Yeni maç" in html
    assert "django_htmx/htmx-2.min.js" in html


def test_home_page_loads_htmx_from_our_own_static_files_not_a_cdn(client):
    html = client.get("/").content.decode()

    # Every script and stylesheet the page loads is ours (a CSRF token may hold "cdn" by chance).
    sources = re.findall(r'(?:src|href)="([^"]*)"', html)
    assert sources and all(source.startswith(("/", "#")) for source in sources), sources
    assert re.search(r'<script[^>]+src="/static/[^"]*htmx[^"]*\.js"', html)


def test_every_page_sends_the_csrf_token_with_htmx_requests(client):
    html = client.get("/").content.decode()

    assert 'hx-headers=\'{"x-csrftoken": "' in html


def test_language_switch_to_english_and_back(client):
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"})

    assert response.status_code == 302
    html = client.get("/").content.decode()
    assert '<html lang="en">' in html
    assert "New match" in html

    client.post("/i18n/setlang/", {"language": "tr", "next": "/"})
    assert "Yeni maç" in client.get("/").content.decode()


def test_content_security_policy_forbids_inline_scripts_and_other_hosts(client):
    csp = client.get("/").headers["Content-Security-Policy"]

    assert "script-src 'self'" in csp
    assert "unsafe-inline" not in csp
    assert "unsafe-eval" not in csp


def test_favicon_redirects_to_a_static_file(client):
    response = client.get("/favicon.ico")

    assert response.status_code == 301
    assert response.headers["Location"].endswith("cetele/favicon.svg")


def test_sqlite_file_database_uses_wal_a_busy_timeout_and_immediate_transactions(tmp_path):
    # The test database lives in memory, where WAL does not apply: ask a real file database.
    probe = (
        "from django.db import connection\n"
        "connection.ensure_connection()\n"
        "c = connection.connection\n"
        "print(c.execute('PRAGMA journal_mode').fetchone()[0],"
        " c.execute('PRAGMA busy_timeout').fetchone()[0],"
        " c.execute('PRAGMA synchronous').fetchone()[0],"
        " connection.transaction_mode)\n"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "cetele.settings",
        "DJANGO_SECRET_KEY": "probe",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'probe.sqlite3'}",
    }

    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "--verbosity=0", "-c", probe],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=settings.BASE_DIR,
    )

    assert result.stdout.split() == ["wal", "20000", "2", "IMMEDIATE"]


@pytest.mark.parametrize(
    ("headers", "allowed"),
    [
        # What a browser sends with a POST from our own page under Referrer-Policy: same-origin.
        ({"HTTP_ORIGIN": "http://testserver", "HTTP_SEC_FETCH_SITE": "same-origin"}, True),
        ({"HTTP_ORIGIN": "null", "HTTP_SEC_FETCH_SITE": "same-origin"}, False),
        ({"HTTP_ORIGIN": "null"}, False),
        ({"HTTP_ORIGIN": "https://evil.example", "HTTP_SEC_FETCH_SITE": "same-origin"}, False),
    ],
)
def test_csrf_accepts_our_own_origin_only(headers, allowed):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.get("/")
    token = client.cookies["csrftoken"].value

    response = client.post(
        "/i18n/setlang/", {"language": "en", "csrfmiddlewaretoken": token}, **headers
    )

    assert (response.status_code != 403) is allowed


def test_turkish_is_the_default_even_for_a_phone_set_to_english(client):
    html = client.get("/", headers={"Accept-Language": "en-US,en;q=0.9"}).content.decode()

    assert '<html lang="tr">' in html
    assert "Yeni maç" in html


def test_the_new_match_and_match_pages_speak_english_with_the_language_cookie(client):
    from django.conf import settings as django_settings

    from tests.factories import make_match

    match = make_match(2, hands=1, planned_hands=5)
    pages = ["/yeni/", f"/m/{match.edit_token}/"]

    turkish = [client.get(url).content.decode() for url in pages]
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = "en"
    english = [client.get(url).content.decode() for url in pages]

    assert "<h1>Yeni maç</h1>" in turkish[0] and "Maçı başlat" in turkish[0]
    assert "Bitirdi" in turkish[1] and "Eli kaydet" in turkish[1]
    assert "<h1>New match</h1>" in english[0] and "Start the match" in english[0]
    assert 'placeholder="Name"' in english[0] and "Çetele Standard" in english[0]
    assert "Finished" in english[1] and "Save hand" in english[1]
    assert "1 / 5 hands played" in english[1] and "1 / 5 el oynandı" in turkish[1]
    for html in english:
        assert '<html lang="en">' in html
        assert "Maçı başlat" not in html and "Bitirdi" not in html and "Eli kaydet" not in html


def test_no_index_repeats_the_start_of_another_on_the_same_table():
    """An index whose columns begin another index (or unique constraint) is never needed for a
    read, and is one more page for every write: a save writes a hand and a change. (A unique
    one is kept: it says something of its own.)"""
    repeated = []
    with connection.cursor() as cursor:
        for model in apps.get_app_config("cetele").get_models():
            table = model._meta.db_table
            found = connection.introspection.get_constraints(cursor, table)
            indexed = {
                name: tuple(about["columns"])
                for name, about in found.items()
                if (about["index"] or about["unique"]) and not about["primary_key"]
            }
            for name, columns in indexed.items():
                if found[name]["unique"] or not columns:
                    continue
                repeated += [
                    (table, name, other)
                    for other, longer in indexed.items()
                    if len(longer) > len(columns) and longer[: len(columns)] == columns
                ]
    assert repeated == []


def test_a_change_is_undone_once_at_most():
    from django.db import IntegrityError, transaction

    from cetele.models import Change
    from tests.factories import make_match, sample_inputs, undo

    match = make_match()
    match.add_hand(sample_inputs(), "token-1")
    reversal = undo(match)
    with pytest.raises(IntegrityError), transaction.atomic():
        Change.objects.create(match=match, action=Change.Action.UNDO, undoes=reversal.undoes)
    # Any number of changes undo nothing.
    Change.objects.create(match=match, action=Change.Action.RENAME)
    Change.objects.create(match=match, action=Change.Action.RENAME)
    assert Change.objects.filter(match=match, undoes__isnull=True).count() == 3


def test_every_request_gets_request_htmx(client):
    response = client.get("/", headers={"HX-Request": "true"})
    assert response.wsgi_request.htmx
    assert not client.get("/").wsgi_request.htmx
