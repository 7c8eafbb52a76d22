"""/healthz, the probe of load balancers and orchestrators: 200 while the database answers, 503
when it does not (a real server on a database that is missing, not migrated or unreachable), no
key, no cookie, nothing written."""

import secrets

import pytest

from bench.harness import Client, Gunicorn, free_port, prepare, server_env
from cetele.models import Change, Match, RetiredLink
from cetele.shell.wrong_passwords import BAD_LINK_LIMIT
from tests.factories import make_match


def test_healthz_answers_200_ok_and_is_never_cached(client, db):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.content == b"ok\n"
    assert response["Content-Type"].startswith("text/plain")
    assert "no-store" in response["Cache-Control"]
    assert not response.cookies  # no CSRF cookie, no language cookie: nothing to keep


def test_healthz_writes_nothing(client, db):
    make_match(hands=2)
    before = (Match.objects.count(), Change.objects.count(), RetiredLink.objects.count())

    for _ in range(BAD_LINK_LIMIT * 2):
        assert client.get("/healthz").status_code == 200
    # Every probe came from this one address; a wrong guess is only a 404.
    assert client.get(f"/m/{secrets.token_urlsafe(32)}/").status_code == 404

    assert (Match.objects.count(), Change.objects.count(), RetiredLink.objects.count()) == before


def test_healthz_takes_only_get_and_head(client, db):
    assert client.head("/healthz").status_code == 200
    assert client.post("/healthz").status_code == 405


def test_healthz_is_answered_over_plain_http_when_https_is_on(client, db, settings):
    # Probes talk to the app server itself, past the TLS proxy: no redirect for them alone.
    settings.SECURE_SSL_REDIRECT = True

    assert client.get("/healthz").status_code == 200
    assert client.get("/").status_code == 301


class Probe(Gunicorn):
    ready = ("/healthz", 503)  # the server is up, and says its database does not answer


@pytest.mark.parametrize(
    "database",
    [
        pytest.param("sqlite:///{tmp}/no-such-folder/db.sqlite3", id="sqlite-file-cannot-open"),
        pytest.param("postgres://postgres@127.0.0.1:{closed}/cetele", id="postgresql-refused"),
    ],
)
def test_healthz_answers_503_on_a_real_server_whose_database_does_not_answer(tmp_path, database):
    url = database.format(tmp=tmp_path, closed=free_port())  # a port nobody listens on
    with Probe(server_env(url, tmp_path), workers=1, log=tmp_path / "log") as server:
        status, headers, body = Client(server.port).get("/healthz")

    assert (status, body) == (503, b"database unavailable\n")
    assert "no-store" in headers["cache-control"]


def test_healthz_turns_200_once_the_database_is_migrated(tmp_path):
    env = server_env(f"sqlite:///{tmp_path}/new.sqlite3", tmp_path)
    with Probe(env, workers=1, log=tmp_path / "log") as server:
        assert Client(server.port).get("/healthz")[0] == 503  # no tables yet

        prepare(env, static=False)

        assert Client(server.port).get("/healthz")[:1] == (200,)
