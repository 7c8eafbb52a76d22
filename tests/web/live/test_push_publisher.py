"""What Django does for push when nchan's publisher is down or absent (cetele.live.push): a
change is saved all the same, the log says so without a key, and a page of an app without a
publisher (`make run`) holds no stream: it polls, as before push."""

import logging
import random
import socket

import pytest
from django.test import Client

from bench.harness import hand_form_data, sample_hand
from cetele.models import Match
from tests.factories import make_match

pytestmark = pytest.mark.django_db


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
