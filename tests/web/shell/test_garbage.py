"""Generated garbage posted to every form endpoint: never a 500, never a half-saved hand."""

import logging
import sys

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cetele.models import Change, Hand, Match, Player
from cetele.shell.logs import ClientErrorsOnOneLine
from tests.factories import make_match
from tests.web.endpoints import fill, make_keys, post_routes

pytestmark = pytest.mark.django_db

FIELD_NAMES = [
    "finisher", "okey_finish", "kafa", "okey_number", "request_token", "version", "action",
    "position", "riziko", "colour",
    "p0-opened", "p0-remaining", "p0-okeys", "p0-fake_okeys", "p0-pen-TOTAL_FORMS",
    "p1-opened", "p1-remaining", "p1-okeys", "p1-fake_okeys", "p1-pen-TOTAL_FORMS",
    "p1-pen-INITIAL_FORMS", "p1-pen-0-DELETE",
    "p1-pen-0-kind", "p1-pen-0-tile", "p1-pen-0-by", "p1-pen-0-points", "p1-pen-0-taken",
    "p2-opening", "p3-cifte_devam", "name_1", "name_2", "name_3", "name_4", "teams",
    "preset", "cezali", "planned_hands", "seat_0", "seat_1",
]  # fmt: skip
VALUES = st.one_of(
    st.text(max_size=30),
    st.integers(min_value=-(10**12), max_value=10**12).map(str),
    st.sampled_from(["", "on", "none", "series", "pairs", "no", "save", "preview",
                     "add-penalty-1", "save-next", "add-penalty-99", "custom",
                     "islek_discard", "okey_taken", "1e9", "NaN", "\x00", "0" * 400]),
)  # fmt: skip
FORM_DATA = st.dictionaries(st.sampled_from(FIELD_NAMES), VALUES, max_size=len(FIELD_NAMES))
HEADERS = st.sampled_from(
    [{}, {"HX-Request": "true"}, {"HX-Request": "true", "HX-Target": "hand-preview"}]
)

ENDPOINTS = [
    ("matches:hand_create", False),
    ("matches:hand_edit", True),
    ("matches:hand_delete", True),
    ("matches:match_players", False),
    ("matches:match_undo", False),
]


def snapshot() -> tuple:
    return (
        Match.objects.count(),
        sorted(Hand.objects.values_list("match_id", "number", "version")),
        Change.objects.count(),
        sorted(Player.objects.values_list("name", flat=True)),
    )


@pytest.mark.parametrize(("name", "takes_hand"), ENDPOINTS)
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=FORM_DATA, headers=HEADERS)
def test_garbage_posted_to_a_match_form_never_breaks_anything(
    client, name, takes_hand, data, headers
):
    match = Match.objects.first() or make_match(hands=1)
    args = [match.edit_token, 1] if takes_hand else [match.edit_token]
    before = snapshot()

    response = client.post(reverse(name, args=args), data, headers=headers)

    assert response.status_code < 500
    re_rendered_form = (
        name in {"matches:hand_create", "matches:hand_edit"} and response.status_code == 200
    )
    if re_rendered_form and data.get("action") != "save":
        # Only "save" may store anything; every other button re-renders the form.
        assert snapshot() == before
    if name == "matches:match_players" and response.status_code == 200:
        assert snapshot() == before
    # Whatever was stored is a whole hand that the engine scores exactly as recorded.
    for hand in Hand.objects.select_related("match"):
        assert hand.match.score(hand.inputs) == hand.result


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=FORM_DATA)
def test_garbage_posted_to_new_match_never_breaks_anything(client, data):
    before = Match.objects.count()

    response = client.post(reverse("matches:match_create"), data)

    assert response.status_code in {200, 302}
    if response.status_code == 200:
        assert Match.objects.count() == before


# --- Bodies that are not our forms' bodies ---------------------------------------------------

FOREIGN_CHARSETS = ["latin-1", "iso-8859-9", "utf-16", "UTF8", "windows-1254", "ascii"]


def csrf_client() -> Client:
    """A client that passes the CSRF check as a phone does (cookie + header): a request from
    anyone, no page visit needed, since the CSRF cookie is only compared with the header."""
    client = Client(enforce_csrf_checks=True, headers={"X-CSRFToken": "A" * 32})
    client.cookies["csrftoken"] = "A" * 32
    return client


@pytest.mark.parametrize("charset", FOREIGN_CHARSETS)
def test_a_form_body_in_another_charset_gets_our_400_page_on_every_post_endpoint(charset, caplog):
    routes = post_routes()
    keys = make_keys()
    client = csrf_client()
    before = snapshot()

    for route in routes:
        keys.refresh()
        url = fill(route, keys)
        caplog.clear()
        with caplog.at_level(logging.INFO):
            response = client.generic(
                "POST",
                url,
                b"name_1=%E7ay&finisher=0",
                content_type=f"application/x-www-form-urlencoded; charset={charset}",
            )

        assert response.status_code == 400, (url, charset)
        assert "Content-Security-Policy" in response.headers, url
        assert response.headers["X-Frame-Options"] == "DENY"
        assert "İstek anlaşılamadı" in response.content.decode(), url
        lines = [record for record in caplog.records if record.levelno >= logging.WARNING]
        assert len(lines) == 1, [record.getMessage() for record in lines]
        assert not lines[0].exc_info and "refused with 400" in lines[0].getMessage()
    assert snapshot() == before


def test_the_refusal_log_line_names_the_route_but_never_the_key(caplog):
    keys = make_keys()

    with caplog.at_level(logging.INFO):
        csrf_client().generic(
            "POST",
            f"/m/{keys.match.edit_token}/el/",
            b"finisher=0",
            content_type="application/x-www-form-urlencoded; charset=latin-1",
        )

    (line,) = [record.getMessage() for record in caplog.records]
    assert "/m/…/el/" in line and keys.match.edit_token not in line


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("multipart/form-data; boundary=", b"--\r\n"),
        ("multipart/form-data", b"a=1"),
        ("application/x-www-form-urlencoded; charset=utf-16", "a=1".encode("utf-16")),
    ],
)
def test_a_broken_form_body_gets_our_400_page(content_type, body):
    response = csrf_client().generic("POST", "/yeni/", body, content_type=content_type)

    assert response.status_code == 400
    assert "Content-Security-Policy" in response.headers


def test_a_foreign_host_on_a_post_gets_our_400_page_not_a_500():
    # Django's own 400 handler runs the CSRF check again, which reads the Host again: a 500.
    response = csrf_client().post("/yeni/", {"name_1": "A"}, headers={"Host": "evil.example"})

    assert response.status_code == 400
    assert "İstek anlaşılamadı" in response.content.decode()


def log_record(name: str, status: int | None) -> logging.LogRecord:
    try:
        raise ValueError("boom")
    except ValueError:
        record = logging.getLogger(name).makeRecord(
            name, logging.ERROR, __file__, 1, "Bad thing: %s", ("/x/",), sys.exc_info()
        )
    if status is not None:
        record.status_code = status
    return record


@pytest.mark.parametrize(
    ("name", "status", "lines"),
    [
        ("django.request", 400, 1),
        ("django.security.DisallowedHost", None, 1),
        ("django.request", 500, None),  # our own failure keeps its traceback
        ("cetele", None, None),
    ],
)
def test_a_client_error_is_logged_on_one_line_a_server_error_with_its_traceback(
    name, status, lines
):
    formatter = ClientErrorsOnOneLine()

    text = formatter.format(log_record(name, status))

    if lines == 1:
        assert text == "Bad thing: /x/"
    else:
        assert "Traceback" in text and "ValueError: boom" in text
