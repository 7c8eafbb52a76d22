"""The installable app's server side (issue 14): the manifest in both languages, the service
worker's script and headers, and the answers a phone's outbox relies on to send a hand saved
offline exactly once. The browser half is tests/browser/shell/test_offline.py."""

import gzip
import json
import re
import struct

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.db import OperationalError
from django.utils import translation

from cetele.models import Match
from cetele.shell import installable as views_app
from tests.factories import form_data, make_match, sample_inputs

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true", "HX-Target": "hand-form"}


def png_size(url: str) -> tuple[int, int]:
    path = finders.find(url.removeprefix(settings.STATIC_URL))
    with open(path, "rb") as file:
        head = file.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", url
    return struct.unpack(">II", head[16:24])


def test_the_manifest_names_the_app_and_its_icons(client):
    response = client.get("/manifest.webmanifest")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Çetele: 101 Okey çetelesi" and manifest["short_name"] == "Çetele"
    assert manifest["lang"] == "tr"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == "#14532d" and manifest["background_color"] == "#f7f7f4"
    sizes = {(icon["sizes"], icon.get("purpose", "any")): icon["src"] for icon in manifest["icons"]}
    assert set(sizes) == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for (size, _), src in sizes.items():
        assert "x".join(map(str, png_size(src))) == size


def test_the_manifest_follows_the_language_switch(client):
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})

    with translation.override("tr"):  # the request activates English in this thread; not after
        response = client.get("/manifest.webmanifest")

    manifest = json.loads(response.content)
    assert manifest["lang"] == "en"
    assert manifest["name"] == "Çetele: a 101 Okey score sheet"
    assert manifest["description"].startswith("Keep your 101 Okey score sheet")
    assert "Cookie" in response["Vary"] and response["Cache-Control"] == "no-cache"


def test_pages_link_the_manifest_both_theme_colours_and_the_worker(client):
    html = client.get("/").content.decode()

    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert re.search(r'theme-color" content="#14532d" media="\(prefers-color-scheme: light\)', html)
    assert re.search(r'theme-color" content="#4ade80" media="\(prefers-color-scheme: dark\)', html)
    assert 'data-sw="/sw.js"' in html
    # offline.js runs before app.js: it must read "Maçlarım" before a deletion is forgotten.
    assert html.index("cetele/offline.js") < html.index("cetele/app.js")


def test_pages_say_how_long_a_write_may_go_unanswered_longer_than_the_database_waits(client):
    """offline.js, seats.js and tea.js give a write up (and keep it on the phone) after the
    time every page names: in production past SQLite's wait for its lock, so that a write only
    waiting its turn is not given up and sent again."""
    from cetele import settings as production

    html = client.get("/").content.decode()

    waits = re.search(r'<meta name="cetele-unanswered-ms" content="(\d+)">', html)
    assert waits and int(waits[1]) == settings.CETELE_UNANSWERED_SECONDS * 1000
    assert production.CETELE_UNANSWERED_SECONDS > production.SQLITE_LOCK_WAIT


def test_the_worker_is_served_from_the_root_with_the_files_it_keeps(client):
    views_app.worker_source.cache_clear()
    response = client.get("/sw.js")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    assert "script-src 'self'" in response["Content-Security-Policy"]
    source = response.content.decode()
    assets = json.loads(re.search(r"^const ASSETS = (.*);$", source, re.M).group(1))
    assert re.search(r'^const VERSION = "[0-9a-f]{16}";$', source, re.M)
    assert "/static/cetele/app.js" in assets and "/static/cetele/offline.js" in assets
    # Kept when a joined phone's page asks (tests/browser/seats/test_join_offline.py), not by every
    # phone at install.
    assert not {"/static/cetele/seats.js", "/static/cetele/seats.css"} & set(assets)
    for url in assets:
        assert finders.find(url.removeprefix(settings.STATIC_URL)), url
    # Nothing in it comes from another site.
    assert not re.search(r"https?://", source.split("\n", 2)[2])


def test_the_worker_is_compressed_when_the_phone_accepts_it(client):
    response = client.get("/sw.js", headers={"Accept-Encoding": "gzip"})

    assert response["Content-Encoding"] == "gzip"
    assert gzip.decompress(response.content).decode() == client.get("/sw.js").content.decode()


def test_the_worker_version_changes_when_a_kept_file_changes(monkeypatch):
    views_app.worker_source.cache_clear()
    before = views_app.worker_source()
    real = views_app.read_static
    monkeypatch.setattr(
        views_app,
        "read_static",
        lambda name: real(name) + (b"/* changed */" if name == "cetele/app.js" else b""),
    )
    views_app.worker_source.cache_clear()
    after = views_app.worker_source()
    views_app.worker_source.cache_clear()

    version = re.compile(r'const VERSION = "(\w+)"')
    assert version.search(before).group(1) != version.search(after).group(1)


def test_edit_pages_stay_out_of_shared_caches(client):
    match = make_match(hands=2)

    response = client.get(f"/m/{match.edit_token}/")

    assert "no-store" in response["Cache-Control"]
    assert "private" in client.get(f"/v/{match.view_token}/")["Cache-Control"]


def test_a_match_page_names_the_outbox_strings_and_the_match_key(client):
    match = make_match()

    html = client.get(f"/m/{match.edit_token}/").content.decode()

    assert "data-outbox" in html
    assert "Bağlantı yok: el bu telefonda bekliyor; bağlantı gelince gönderilir." in html
    assert "Bağlantı yok — çetele en son böyleydi" in html
    key = re.search(r'data-outbox data-match-key="(\w+)"', html).group(1)
    assert f'data-match-key="{key}"' in client.get(f"/v/{match.view_token}/").content.decode()


def event(response, name: str) -> dict:
    return json.loads(response["HX-Trigger"])[name]


def test_a_save_names_its_token_and_place_for_the_outbox(client):
    match = make_match(hands=2)
    data = form_data(sample_inputs(remaining=31), token="offline-token-1", position=3)

    response = client.post(f"/m/{match.edit_token}/el/", data, headers=HTMX)

    assert response.status_code == 200
    number = match.hands.order_by("number").last().number  # for the page to mark its row
    saved = {"token": "offline-token-1", "position": 3, "number": number}
    assert event(response, "cetele:hand-saved") == saved


def test_a_resent_hand_whose_answer_was_lost_is_saved_once_and_named_again(client):
    match = make_match(hands=2)
    data = form_data(sample_inputs(remaining=31), token="answer-lost", position=3)
    client.post(f"/m/{match.edit_token}/el/", data, headers=HTMX)
    client.post(f"/m/{match.edit_token}/el/", form_data(sample_inputs(), position=4), headers=HTMX)

    resent = client.post(f"/m/{match.edit_token}/el/", data, headers=HTMX)

    assert resent.status_code == 200
    assert "Bu el zaten kaydedildi." in resent.content.decode()
    number = match.hands.order_by("number")[2].number
    saved = {"token": "answer-lost", "position": 3, "number": number}
    assert event(resent, "cetele:hand-saved") == saved
    assert match.hands.count() == 4


def test_a_hand_sent_to_a_taken_place_is_asked_about_not_saved(client):
    match = make_match(hands=3)
    data = form_data(sample_inputs(remaining=31), token="late", position=3)

    response = client.post(f"/m/{match.edit_token}/el/", data, headers=HTMX)

    assert response.status_code == 200
    assert "cetele:hand-saved" not in response.get("HX-Trigger", "")
    assert "3. el az önce başka bir telefondan kaydedildi" in response.content.decode()
    assert match.hands.count() == 3


def test_a_refused_write_tells_the_outbox_to_try_again(client, monkeypatch):
    match = make_match(hands=1)

    def locked(*args, **kwargs):
        raise OperationalError("database is locked")

    monkeypatch.setattr(Match, "add_hand", locked)
    data = form_data(sample_inputs(), token="try-again", position=2)
    response = client.post(f"/m/{match.edit_token}/el/", data, headers=HTMX)

    assert response.status_code == 200
    # Read as the outbox reads it (offline.js triggers(): JSON.parse, the event by its name).
    assert event(response, "cetele:save-failed") == {}
    assert match.hands.count() == 1
