"""What Django does for push when nchan's publisher is down or absent (cetele.live.push): a
change is saved all the same, the log says so without a key, and a page of an app without a
publisher (`make run`) holds no stream: it polls, as before push."""

import logging
import random
import re
import socket

import pytest
from django.test import Client

from bench.harness import hand_form_data, sample_hand
from cetele.live.push import stream_id
from cetele.models import Match
from tests.factories import make_match
from tests.web.sharing.test_links_are_keys import fill, match_routes

pytestmark = pytest.mark.django_db

LINKS = {"m": "edit_token", "v": "view_token", "k": "join_token"}


def closed_port() -> int:
    """A port nothing listens on (bound, then let go)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_a_hand_is_saved_while_the_publisher_is_down_and_the_log_names_no_key(
    settings, django_capture_on_commit_callbacks, caplog
):
    settings.CETELE_PUSH_PUBLISH = f"http://127.0.0.1:{closed_port()}/pub/"
    match = make_match()
    form = hand_form_data(sample_hand(random.Random(3))) | {"position": "1", "rows_seen": ""}
    with (
        caplog.at_level(logging.WARNING, logger="cetele.live.push"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        response = Client().post(f"/m/{match.edit_token}/el/", form)
    assert response.status_code in (302, 303)
    assert Match.objects.get(pk=match.pk).hands.count() == 1
    assert "could not be reached" in caplog.text
    for key in (match.edit_token, match.view_token, match.join_token):
        assert key not in caplog.text


def test_without_a_publisher_a_page_holds_no_stream_and_polls(settings, client):
    settings.CETELE_PUSH_PUBLISH = ""
    match = make_match()
    page = client.get(f"/v/{match.view_token}/").content.decode()
    assert "data-stream" not in page
    assert 'hx-trigger="every 4s' in page


def test_with_a_publisher_each_page_names_its_own_stream(settings, client):
    settings.CETELE_PUSH_PUBLISH = "http://127.0.0.1:9/pub/"
    match = make_match()
    view = client.get(f"/v/{match.view_token}/").content.decode()
    edit = client.get(f"/m/{match.edit_token}/").content.decode()
    assert 'data-stream="/canli/' in view and 'data-stream="/canli/' in edit
    assert view.split('data-stream="')[1][:40] != edit.split('data-stream="')[1][:40]


def test_no_page_of_a_link_names_another_links_stream_over_the_whole_urlconf(settings, client):
    """As the view link never shows the edit link: every page and fragment under each link
    (every route of the URLconf under /m/, /v/ and /k/, a page and its htmx answer, at the
    version shown and an older one) names no other link's stream, and none names a key in a
    stream's place."""
    settings.CETELE_PUSH_PUBLISH = "http://127.0.0.1:9/pub/"
    match = make_match(hands=2)
    match.refresh_from_db()
    number = match.hands.first().number
    streams = {prefix: stream_id(getattr(match, field)) for prefix, field in LINKS.items()}
    stale = f"?v={match.version - 1}"
    for prefix, field in LINKS.items():
        token = getattr(match, field)
        others = [stream for name, stream in streams.items() if name != prefix]
        for route in match_routes(prefix):
            if route.endswith(("sil/", "yenile/")):
                continue  # a deletion or a rotation: its GET confirms, nothing live there
            url = fill(route, token, number)
            for variant in (url, url + stale):
                for headers in ({}, {"HX-Request": "true"}):
                    body = client.get(variant, headers=headers).content.decode()
                    assert not any(stream in body for stream in others), variant
                    for found in re.findall(r'data-stream="([^"]*)"', body):
                        assert found == f"/canli/{streams[prefix]}", variant
