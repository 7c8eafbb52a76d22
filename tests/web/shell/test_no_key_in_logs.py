"""No key in any log line, whichever logger wrote it: the logs of a run are scanned for the links'
tokens. In the test process through settings.LOGGING (Django's 404, CSRF and 500 lines, its
development server's request lines, a warning), and in a real gunicorn's output, its access
log included."""

import contextlib
import io
import logging
import re
import sqlite3

import pytest
from django.test import Client

from bench.harness import Client as PhoneClient
from bench.harness import Gunicorn, prepare, server_env
from cetele.models import Match
from cetele.shell.logs import RedactKeys, redact
from tests.factories import add_hand, make_match, sample_inputs

TOKEN = re.compile(r"[A-Za-z0-9_-]{22,64}")


@contextlib.contextmanager
def configured_log():
    """What the handlers settings.LOGGING configured write, in a string."""
    handlers = [
        h
        for h in logging.getLogger().handlers
        if h.filters and any(isinstance(f, RedactKeys) for f in h.filters)
    ]
    assert handlers, "settings.LOGGING gives the root no redacting handler"
    written = io.StringIO()
    old = [handler.setStream(written) for handler in handlers]
    try:
        yield written
    finally:
        for handler, stream in zip(handlers, old, strict=True):
            handler.setStream(stream)


def keys_of(match: Match) -> list[str]:
    return [match.edit_token, match.view_token]


@pytest.mark.django_db
def test_django_s_own_lines_carry_no_key(monkeypatch):
    match = make_match()
    add_hand(match, sample_inputs(4))
    careless = Client(raise_request_exception=False)
    strict = Client(enforce_csrf_checks=True)
    edit, view = match.edit_token, match.view_token

    def broken(*args, **kwargs):
        raise RuntimeError(f"drawing /m/{edit}/ failed")

    with configured_log() as log:
        careless.get(f"/m/{edit}/el/9/")  # Not Found: /m/<token>/el/9/
        careless.get(f"/v/{view}/el/9/")
        strict.post(f"/m/{edit}/el/", {"finisher": "0"})  # Forbidden (CSRF cookie not set.)
        strict.get(f"/m/{edit}/")  # a CSRF cookie, then a POST without the token
        strict.post(f"/m/{edit}/geri-al/", {})  # Forbidden (CSRF token missing.)
        monkeypatch.setattr("cetele.matches.sheet.draw", broken)
        careless.get(f"/v/{view}/")  # Internal Server Error: /v/<token>/, with its traceback
        logging.getLogger("django.server").warning(
            '"%s" %s %s', f"GET /m/{edit}/?from={view} HTTP/1.1", 404, 179
        )
        logging.getLogger("py.warnings").warning("a warning about /kurallar/yeni/?from=%s", view)

    text = log.getvalue()
    assert "Not Found: /m/…/el/9/" in text and "Not Found: /v/…/el/9/" in text
    assert "Forbidden (CSRF cookie not set.): /m/…/el/" in text
    assert "Forbidden (CSRF token missing.): /m/…/geri-al/" in text
    assert "Internal Server Error: /v/…/" in text and "RuntimeError: drawing /m/…/ failed" in text
    assert '"GET /m/…/?from=… HTTP/1.1" 404 179' in text
    assert "?from=…" in text
    for key in keys_of(match):
        assert key not in text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Not Found: /m/%s/el/9/", "Not Found: /m/…/el/9/"),
        ("/kurallar/yeni/?preset=house:%s&x=1", "/kurallar/yeni/?preset=house:…&x=1"),
        ("%s", "…"),
        # Names in a traceback are kept, however long.
        ("File site-packages/x.py, in CsrfWithNoReferrerMiddleware", None),
        ("KeyError: 'HTTP_X_FORWARDED_PROTO' in process_view_for_every_request", None),
    ],
)
def test_redact_takes_out_keys_and_keeps_names_in_code(text, expected):
    key = "Zx9_-Qp3LmN0aBcDeFgHiJkLmNoPqRsTuVwXyZ012"
    given = text % key if "%s" in text else text
    assert redact(given) == (expected if expected is not None else given)


@pytest.mark.django_db(transaction=True)
def test_a_real_gunicorn_logs_no_key_access_log_and_errors_included(tmp_path, static_root):
    db = tmp_path / "db.sqlite3"
    env = server_env(f"sqlite:///{db}", static_root)
    prepare(env, static=False)
    log = tmp_path / "gunicorn.log"
    with Gunicorn(env, workers=1, log=log, extra_args=("--access-logfile", "-")) as server:
        phone = PhoneClient(server.port)
        page = phone.start_match()
        edit = page.split("/")[2]
        phone.get(f"{page}el/9/")  # 404
        phone.get(f"{page}poll/?v=0", headers={"HX-Request": "true"})
        stranger = PhoneClient(server.port)
        stranger.post(f"{page}el/", {"finisher": "0"})  # 403: no CSRF cookie
        with contextlib.closing(sqlite3.connect(db)) as connection:
            view = connection.execute("SELECT view_token FROM cetele_match").fetchone()[0]
            phone.get(f"/v/{view}/")
            connection.execute("DROP TABLE cetele_hand")  # a hand's page then fails: a 500
            connection.commit()
        failed = phone.get(f"{page}el/1/")

    text = log.read_text(errors="replace")
    assert failed[0] == 500 and "Bir sorun çıktı" in failed[2].decode()  # our page (500.html)
    assert "no-store" in failed[1]["cache-control"]
    assert "Not Found: /m/…/el/9/" in text
    assert "Forbidden (CSRF cookie not set.): /m/…/el/" in text
    assert "Internal Server Error: /m/…/el/1/" in text and "Traceback" in text
    assert re.search(r'"GET /m/…/el/9/ HTTP/1.1" 404', text)  # the access log
    assert re.search(r'"GET /v/…/ HTTP/1.1" 200', text)
    assert edit not in text and view not in text
    assert not [run for run in TOKEN.findall(text) if redact(run) != run]
