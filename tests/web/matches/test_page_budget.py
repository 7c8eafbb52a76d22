"""The page budget: a phone on a café's weak Wi-Fi loads a 13-hand match page, everything it
asks for included (the web app manifest, the service worker and the files the worker keeps),
in under 60 KB compressed; a hand save answers with a partial.

Static files count gzip level 9, as whitenoise precompresses them (it serves the .gz, or the
.br where brotli is installed, beside each one). The HTML counts as sent, uncompressed: the app
itself does not compress it (a front server may, which only makes it smaller).
"""

import gzip
import json
import re
from html.parser import HTMLParser

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from tests.factories import form_data, make_match, sample_inputs

pytestmark = pytest.mark.django_db

BUDGET = 60 * 1024
STATIC_URL = "/static/"


class Assets(HTMLParser):
    """What the browser fetches on first load: stylesheets, scripts, icons, images, fonts."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.images: list[str] = []
        self.served: list[str] = []  # by a view, not a static file: the manifest, the worker

    def handle_starttag(self, tag: str, attrs: list) -> None:
        attributes = dict(attrs)
        if tag == "link" and attributes.get("rel") in {"stylesheet", "icon", "preload"}:
            self.urls.append(attributes["href"])
        elif tag == "link" and attributes.get("rel") == "manifest":
            self.served.append(attributes["href"])
        elif tag == "script" and attributes.get("src"):
            self.urls.append(attributes["src"])
            if attributes.get("data-sw"):
                self.served.append(attributes["data-sw"])
        elif tag == "img":
            self.images.append(attributes.get("src", ""))
            self.urls.append(attributes.get("src", ""))


def compressed(data: bytes) -> int:
    return len(gzip.compress(data, compresslevel=9, mtime=0))


def static_file(url: str) -> bytes:
    assert url.startswith(STATIC_URL), f"{url} is not one of our static files"
    path = finders.find(url.removeprefix(STATIC_URL).split("?")[0])
    assert path, url
    with open(path, "rb") as file:
        return file.read()


def first_load(client: Client, url: str) -> dict[str, int]:
    """Compressed bytes of the page and of everything it makes the browser fetch."""
    page = client.get(url)
    assert page.status_code == 200
    sizes = {url: len(page.content)}
    assets = Assets()
    assets.feed(page.content.decode())
    pending = list(assets.urls)
    # The manifest, and the service worker with the files it keeps on the phone at once.
    for served in assets.served:
        answer = client.get(served, headers={"Accept-Encoding": "gzip"})
        assert answer.status_code == 200, served
        sizes[served] = len(answer.content)
        if served.endswith(".js"):
            worker = gzip.decompress(answer.content).decode()
            pending += json.loads(re.search(r"const ASSETS = (.*);", worker).group(1))
    while pending:
        asset = pending.pop()
        if asset in sizes or asset.startswith("data:"):
            continue
        content = static_file(asset)
        sizes[asset] = compressed(content)
        if asset.endswith(".css"):
            for found in re.findall(rb"url\(\s*['\"]?([^'\")]+)", content):
                if not found.startswith(b"data:"):
                    pending.append(STATIC_URL + found.decode().lstrip("/"))
    return sizes


def test_a_13_hand_match_page_loads_in_under_60_kb_compressed(client, settings):
    settings.CETELE_PUSH_PUBLISH = "http://127.0.0.1:9/pub/"  # as served: the page holds a stream
    match = make_match(hands=13)

    sizes = first_load(client, f"/m/{match.edit_token}/")

    total = sum(sizes.values())
    report = ", ".join(f"{url}: {size} B" for url, size in sizes.items())
    assert total < BUDGET, f"{total} B > {BUDGET} B ({report})"
    assert any(url.endswith("sw.js") for url in sizes) and any("manifest" in url for url in sizes)


def test_the_page_loads_no_web_fonts_and_no_images(client):
    match = make_match(hands=13)

    sizes = first_load(client, f"/m/{match.edit_token}/")
    assets = Assets()
    assets.feed(client.get(f"/m/{match.edit_token}/").content.decode())

    assert not [url for url in sizes if re.search(r"\.(woff2?|ttf|otf|eot)$", url)]
    for url in sizes:
        if url.endswith(".css"):
            assert b"@font-face" not in static_file(url), url
    assert assets.images == []


def test_a_hand_save_answers_with_a_partial_not_a_page(client):
    match = make_match(hands=12)
    page = client.get(f"/m/{match.edit_token}/")

    saved = client.post(
        f"/m/{match.edit_token}/el/",
        form_data(sample_inputs(remaining=31)),
        headers={"HX-Request": "true"},
    )

    assert saved.status_code == 200
    body = saved.content.decode()
    assert "<html" not in body and "<head" not in body and "<body" not in body
    assert 'id="hand-form"' in body and 'hx-swap-oob="true"' in body
    assert len(saved.content) < len(page.content)
    assert match.hands.count() == 13


def test_a_preview_answers_with_the_preview_alone(client):
    match = make_match(hands=12)

    preview = client.post(
        f"/m/{match.edit_token}/el/",
        form_data(sample_inputs(remaining=31), action="preview"),
        headers={"HX-Request": "true", "HX-Target": "hand-preview"},
    )

    assert preview.status_code == 200
    body = preview.content.decode()
    assert 'id="hand-preview"' in body
    assert "<html" not in body and 'id="hand-form"' not in body
    assert compressed(preview.content) < 2 * 1024
