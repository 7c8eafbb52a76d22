"""The poll's fast path (cetele.live.fastpoll) answers exactly as Django does, and only when Django
would answer "nothing changed": every other poll goes to Django untouched."""

import io
import re

import pytest
from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler
from django.http import HttpResponse
from django.test import override_settings

from cetele.live.fastpoll import VERSION_QUERY, PollFastPath, current_version
from cetele.models import Match
from cetele.seats.claims import CLAIMS_COOKIE, seats_changed
from cetele.sharing.links import SEEN_COOKIE, link_mark
from tests.factories import add_hand, make_match, sample_inputs

# transaction=True: the fast path ends its request as a server does (request_finished closes a
# connection left outside autocommit), which only a transactional test database allows.
pytestmark = pytest.mark.django_db(transaction=True)


class Counting:
    """Django's application, counting the requests that reach it."""

    def __init__(self) -> None:
        self.django = WSGIHandler()
        self.calls = 0

    def __call__(self, environ, start_response):
        self.calls += 1
        return self.django(environ, start_response)


def environ(path: str, query: str = "", cookie: str = "", **extra) -> dict:
    env = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "80",
        "HTTP_HOST": "127.0.0.1",
        "REMOTE_ADDR": "203.0.113.9",
        "HTTP_HX_REQUEST": "true",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(b""),
        "wsgi.errors": io.StringIO(),
        "wsgi.version": (1, 0),
        "wsgi.multithread": False,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
    }
    if cookie:
        env["HTTP_COOKIE"] = cookie
    env.update(extra)
    return env


def call(app, env: dict) -> tuple[str, dict, bytes]:
    answer = {}

    def start_response(status, headers, exc_info=None):
        answer["status"], answer["headers"] = status, headers

    body = b"".join(app(env, start_response))
    headers = {name: value for name, value in answer["headers"] if name.lower() != "expires"}
    return answer["status"], headers, body


def opened(*tokens: str) -> str:
    """The cookies of a browser that opened these links: from Django itself (each page's view
    adds its link's mark, and the CSRF cookie), never a copy of how they are made."""
    from django.test import Client

    browser = Client(HTTP_HOST="127.0.0.1")
    for token in tokens:
        match = Match.objects.filter(view_token=token).first()
        path = f"/v/{token}/" if match else f"/m/{token}/"
        browser.get(path, secure=True)  # a page, not a redirect to HTTPS
    csrf = browser.cookies[settings.CSRF_COOKIE_NAME].value
    return f"{settings.CSRF_COOKIE_NAME}={csrf}; {SEEN_COOKIE}={browser.cookies[SEEN_COOKIE].value}"


def joined(match: Match, seat: int = 1) -> str:
    """The cookies of a phone that opened the join link and took the seat `seat` (from Django)."""
    from django.test import Client

    phone = Client(HTTP_HOST="127.0.0.1")
    phone.get(f"/k/{match.join_token}/", secure=True)
    response = phone.post(f"/k/{match.join_token}/", {"seat": str(seat)}, secure=True)
    assert response.status_code == 302
    names = (settings.CSRF_COOKIE_NAME, SEEN_COOKIE, CLAIMS_COOKIE)
    return "; ".join(f"{name}={phone.cookies[name].value}" for name in names)


def rows_query(match: Match) -> str:
    """The rows' poll's query as the page writes it (cetele.seats.pages.rows_url)."""
    match.refresh_from_db()
    return f"v={match.version}&d={match.draft_version}&p={match.hands.count() + 1}"


def forged(*tokens: str) -> str:
    """A cookie holding the marks, signed with another key."""
    from django.test import override_settings as override

    with override(SECRET_KEY="not-the-server-s-key-" + "x" * 40):
        response = HttpResponse()
        response.set_signed_cookie(
            SEEN_COOKIE, ".".join(link_mark(t) for t in tokens), salt=SEEN_COOKIE
        )
    return f"{SEEN_COOKIE}={response.cookies[SEEN_COOKIE].value}"


@pytest.mark.parametrize(("prefix", "field"), [("v", "view_token"), ("m", "edit_token")])
@pytest.mark.parametrize("language", ["", "django_language=en; "])
def test_nothing_changed_is_answered_without_django_with_django_s_own_headers(
    prefix, field, language
):
    match = make_match(hands=2)
    match.refresh_from_db()
    token = getattr(match, field)
    env = environ(f"/{prefix}/{token}/poll/", f"v={match.version}", language + opened(token))
    django_answer = call(WSGIHandler(), dict(env))
    inner = Counting()
    fast = PollFastPath(inner)

    first = call(fast, dict(env))  # Django answers the first, and its headers are kept
    again = [call(fast, dict(env)) for _ in range(3)]

    assert django_answer[0] == "204 No Content" and django_answer[2] == b""
    assert first == django_answer
    assert all(answer == django_answer for answer in again)
    assert inner.calls == 1


def live_polls(match: Match) -> list[tuple[str, dict]]:
    """A joined phone's polls (its sheet, the open hand's rows) and the scorer's rows' poll,
    each at the numbers the match is at."""
    match.refresh_from_db()
    phone = joined(match)
    scorer = opened(match.edit_token)
    rows = rows_query(match)
    return [
        (
            "a joined phone's sheet",
            environ(f"/k/{match.join_token}/poll/", f"v={match.version}", phone),
        ),
        ("a joined phone's rows", environ(f"/k/{match.join_token}/satirlar/", rows, phone)),
        ("the scorer's rows", environ(f"/m/{match.edit_token}/satirlar/", rows, scorer)),
    ]


def test_a_joined_phone_s_polls_and_the_rows_polls_are_answered_as_django_answers_them():
    """Before: each went through Django, the rows' poll every 2 to 8 s on every scorer's page."""
    match = make_match(hands=2)
    for why, env in live_polls(match):
        django_answer = answer(WSGIHandler(), env)
        inner = Counting()
        fast = PollFastPath(inner)
        assert answer(fast, env) == django_answer, why  # Django's, learnt
        assert [answer(fast, env) for _ in range(3)] == [django_answer] * 3, why
        assert django_answer[0] == "204 No Content" and inner.calls == 1, why


def test_a_row_written_or_a_hand_saved_is_the_rows_poll_s_news_never_the_fast_path_s():
    match = make_match(hands=2)
    polls = dict(live_polls(match))
    fast = PollFastPath(WSGIHandler())
    for env in polls.values():
        call(fast, dict(env))  # learnt
    seats_changed(match)  # as a seat taken or a row written does: the rows' version moves on
    for why in ("a joined phone's rows", "the scorer's rows"):
        status, _, body = call(fast, dict(polls[why]))
        assert status.startswith("200") and b"table-rows" in body, why
    assert call(fast, dict(polls["a joined phone's sheet"]))[0].startswith(
        "204"
    )  # the sheet stands
    add_hand(match, sample_inputs(finisher=1, remaining=9))
    status, _, body = call(fast, dict(polls["a joined phone's sheet"]))
    assert status.startswith("200") and b'id="sheet"' in body


def test_the_edit_poll_keeps_django_s_never_cache_expiry_fresh():
    match = make_match(hands=1)
    match.refresh_from_db()
    env = environ(f"/m/{match.edit_token}/poll/", f"v={match.version}", opened(match.edit_token))
    fast = PollFastPath(WSGIHandler())
    call(fast, dict(env))
    answer = {}

    def start_response(status, headers, exc_info=None):
        answer.update(headers)

    fast(dict(env), start_response)
    assert "no-store" in answer["Cache-Control"] and answer["Expires"].endswith("GMT")


def other_polls(match: Match) -> list[tuple[str, dict]]:
    """Polls only Django may answer, each with why."""
    view, edit = match.view_token, match.edit_token
    cookie = opened(view, edit)
    path = f"/v/{view}/poll/"
    current = f"v={match.version}"
    return [
        ("an older version: the sheet", environ(path, f"v={match.version - 1}", cookie)),
        ("a version written otherwise", environ(path, f"v=0{match.version}", cookie)),
        ("no cookie: the limiter must ask the cache", environ(path, current)),
        ("a cookie without this link", environ(path, current, opened(edit))),
        ("a cookie signed with another key", environ(path, current, forged(view))),
        (
            "a mark of the link written by hand",
            environ(path, current, f"{SEEN_COOKIE}={link_mark(view)}"),
        ),
        ("an unknown link", environ(f"/v/{'x' * 43}/poll/", current, cookie)),
        ("another query", environ(path, current + "&x=1", cookie)),
        ("a HEAD", environ(path, current, cookie, REQUEST_METHOD="HEAD")),
        ("a body", environ(path, current, cookie, CONTENT_LENGTH="3")),
        ("a host Django refuses", environ(path, current, cookie, HTTP_HOST="evil.example")),
        ("a message to show", environ(path, current, cookie + "; messages=abc")),
    ]


def test_every_other_poll_goes_to_django_and_gets_django_s_answer():
    match = make_match(hands=2)
    match.refresh_from_db()
    add_hand(match, sample_inputs(finisher=1, remaining=9))
    match.refresh_from_db()
    for why, env in other_polls(match):
        inner = Counting()
        fast = PollFastPath(inner)
        fast.headers = {key: [("X-Fast", "1")] for key in _every_key()}  # as if learnt
        status, headers, body = call(fast, dict(env))
        assert inner.calls == 1, why
        assert "X-Fast" not in headers, why
        django_answer = call(WSGIHandler(), dict(env))
        assert (status, without_tokens(body)) == (
            django_answer[0],
            without_tokens(django_answer[2]),
        ), why


def without_tokens(body: bytes) -> bytes:
    """A page's CSRF tokens are new each time it is rendered, and the seconds the match has been
    quiet (data-quiet) may have ticked on between two drawings."""
    body = re.sub(rb'(csrftoken": "|name="csrfmiddlewaretoken" value=")[^"]+', rb"\1", body)
    return re.sub(rb'data-quiet="\d+"', b'data-quiet=""', body)


def _every_key() -> list[tuple]:
    return [
        (role, poll, secure, lang)
        for role in ("edit", "view", "join")
        for poll in ("sheet", "rows")
        for secure in (True, False)
        for lang in ("tr", "en")
    ]


@override_settings(SECURE_SSL_REDIRECT=True)
def test_a_poll_django_would_send_to_https_goes_to_django():
    match = make_match(hands=1)
    match.refresh_from_db()
    env = environ(f"/v/{match.view_token}/poll/", f"v={match.version}", opened(match.view_token))
    inner = Counting()
    fast = PollFastPath(inner)
    fast.headers = {key: [("X-Fast", "1")] for key in _every_key()}
    status, _, _ = call(fast, dict(env))
    assert inner.calls == 1 and status.startswith("301")
    https = dict(env, **{"wsgi.url_scheme": "https"})
    assert call(fast, https)[1] == {"X-Fast": "1"} and inner.calls == 1


def test_the_production_entry_point_wears_the_fast_path():
    from cetele import wsgi

    assert isinstance(wsgi.application.application, PollFastPath)


def test_a_database_that_fails_is_django_s_to_answer(monkeypatch):
    match = make_match(hands=1)
    match.refresh_from_db()
    env = environ(f"/v/{match.view_token}/poll/", f"v={match.version}", opened(match.view_token))
    inner = Counting()
    fast = PollFastPath(inner)
    fast.headers = {key: [("X-Fast", "1")] for key in _every_key()}

    def broken(*args):
        from django.db import OperationalError

        raise OperationalError("database is locked")

    monkeypatch.setattr("cetele.live.fastpoll.current_version", broken)
    status, headers, _ = call(fast, dict(env))
    assert inner.calls == 1 and "X-Fast" not in headers and status.startswith("204")


# --- Request by request: the fast path's answer is Django's -----------------------------------


def answer(app, env: dict) -> tuple[str, list]:
    """Status and headers as a comparison sees them: the server's Date is not among them, an
    Expires is dated now (its presence compared), a new cookie's value is random and its expiry
    dated from now (its name and other attributes compared)."""
    status, headers = "", []

    def start_response(given_status, given_headers, exc_info=None):
        nonlocal status, headers
        status, headers = given_status, given_headers

    b"".join(app(dict(env), start_response))
    shown = []
    for name, value in headers:
        name = name.lower()
        if name == "expires":
            value = "(now)"
        elif name == "set-cookie":
            value = re.sub(r"^([^=]+)=[^;]*", r"\1=(new)", value)
            value = re.sub(r"expires=[^;]*", "expires=(a year on)", value)
        shown.append((name, value))
    return status, sorted(shown)


def learnt(match: Match, cookie: str) -> PollFastPath:
    """The fast path of a process that has answered every kind of plain poll once."""
    fast = PollFastPath(WSGIHandler())
    for prefix, token in (("v", match.view_token), ("m", match.edit_token)):
        for scheme in ("http", "https"):
            for language in ("", "django_language=en; "):
                env = environ(f"/{prefix}/{token}/poll/", f"v={match.version}", language + cookie)
                env["wsgi.url_scheme"] = scheme
                call(fast, env)
    return fast


def with_cookie(cookie: str, name: str, value: str | None) -> str:
    """`cookie` with the cookie `name` set to `value` (or left out: None)."""
    parts = [part for part in cookie.split("; ") if not part.startswith(name + "=")]
    return "; ".join(parts + ([f"{name}={value}"] if value is not None else []))


def unusual_polls(match: Match) -> list[tuple[str, dict]]:
    """Polls of a browser that opened the link, each unusual in one way."""
    view, edit = match.view_token, match.edit_token
    cookie = opened(view, edit)
    csrf = settings.CSRF_COOKIE_NAME
    path, current = f"/v/{view}/poll/", f"v={match.version}"
    no_host = environ(path, current, cookie)
    del no_host["HTTP_HOST"]
    return [
        ("plain", environ(path, current, cookie)),
        ("the edit link", environ(f"/m/{edit}/poll/", current, cookie)),
        ("in English", environ(path, current, "django_language=en; " + cookie)),
        ("an unknown language", environ(path, current, "django_language=xx; " + cookie)),
        ("over HTTPS", environ(path, current, cookie, **{"wsgi.url_scheme": "https"})),
        ("a malformed CSRF cookie", environ(path, current, with_cookie(cookie, csrf, "abc"))),
        (
            "a CSRF cookie of wrong characters",
            environ(path, current, with_cookie(cookie, csrf, "!" * 32)),
        ),
        (
            "an older masked CSRF cookie",
            environ(path, current, with_cookie(cookie, csrf, "a" * 64)),
        ),
        ("no CSRF cookie", environ(path, current, with_cookie(cookie, csrf, None))),
        ("an empty Host, SERVER_NAME allowed", environ(path, current, cookie, HTTP_HOST="")),
        ("no Host, SERVER_NAME allowed", no_host),
        ("a Host with a port", environ(path, current, cookie, HTTP_HOST="127.0.0.1:8000")),
        ("a foreign Host", environ(path, current, cookie, HTTP_HOST="evil.example")),
        ("a malformed Host", environ(path, current, cookie, HTTP_HOST="127.0.0.1:80:80")),
        (
            "a forwarded scheme from anyone",
            environ(path, current, cookie, HTTP_X_FORWARDED_PROTO="https"),
        ),
        ("a message to show", environ(path, current, cookie + "; messages=abc")),
        ("a session cookie", environ(path, current, cookie + "; sessionid=x")),
        ("a cookie of anyone's", environ(path, current, cookie + "; other=1")),
        ("not sent by htmx", environ(path, current, cookie, HTTP_HX_REQUEST="")),
        ("mounted under a prefix", environ(path, current, cookie, SCRIPT_NAME="/cetele")),
    ]


def test_each_unusual_poll_is_answered_as_django_answers_it():
    """Before: a malformed CSRF cookie got no fresh cookie, an empty Host with an allowed
    SERVER_NAME 204 where Django gives 400."""
    match = make_match(hands=2)
    match.refresh_from_db()
    for why, env in unusual_polls(match):
        django_answer = answer(WSGIHandler(), env)
        fast = learnt(match, opened(match.view_token, match.edit_token))
        assert answer(fast, env) == django_answer, why


def test_an_unusual_poll_teaches_the_fast_path_nothing_wrong():
    """Whatever poll a process answers first, the plain ones after it get Django's answer."""
    match = make_match(hands=2)
    match.refresh_from_db()
    plain = dict(unusual_polls(match))
    for why, env in unusual_polls(match):
        fast = PollFastPath(WSGIHandler())
        answer(fast, env)
        for kind in ("plain", "the edit link", "in English", "over HTTPS"):
            assert answer(fast, plain[kind]) == answer(WSGIHandler(), plain[kind]), (why, kind)


@pytest.mark.django_db
def test_the_fast_poll_s_query_reads_the_match_table_by_the_token_it_is_given():
    assert all(Match._meta.db_table in query for query in VERSION_QUERY.values())
    match = make_match(hands=2)
    match.refresh_from_db()
    versions = (match.pk, match.version, match.draft_version)
    assert current_version("view_token", match.view_token) == versions
    assert current_version("edit_token", match.edit_token) == versions
    assert current_version("join_token", match.join_token) == versions
    assert current_version("edit_token", match.view_token) is None  # a view token opens no edit
    assert current_version("view_token", "x" * 43) is None
