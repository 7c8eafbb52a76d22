"""Bad requests against the app as it runs in production (real gunicorn, DEBUG off): our page and
headers, never a 500, one short log line each. The Django test client alone missed the original
failure: a urlencoded body in another charset answered 500 with ~45 KB of traceback logged."""

import pytest

from bench.harness import Client, Gunicorn, prepare, server_env

pytestmark = pytest.mark.django_db(transaction=True)

LATIN_1 = "application/x-www-form-urlencoded; charset=latin-1"


@pytest.fixture(scope="module")
def server(tmp_path_factory, static_root):
    folder = tmp_path_factory.mktemp("refusals")
    env = server_env(f"sqlite:///{folder}/db.sqlite3", static_root)
    prepare(env, static=False)
    log = folder / "gunicorn.log"
    with Gunicorn(env, workers=1, log=log) as gunicorn:
        yield gunicorn, log


def log_growth(log, action) -> tuple[list[str], object]:
    before = log.stat().st_size
    result = action()
    with open(log, "rb") as file:
        file.seek(before)
        added = file.read().decode(errors="replace")
    return [line for line in added.splitlines() if line.strip()], result


@pytest.mark.parametrize("path", ["/yeni/", "/kurallar/onizle/", "/i18n/setlang/"])
def test_a_body_in_another_charset_is_a_400_page_of_ours_and_one_log_line(server, path):
    gunicorn, log = server
    client = Client(gunicorn.port)
    client.get("/yeni/")  # a CSRF cookie, as any visitor gets

    lines, (status, headers, body) = log_growth(
        log, lambda: client.request("POST", path, b"name_1=%E7", {"Content-Type": LATIN_1})
    )

    assert status == 400
    assert "content-security-policy" in headers and headers["x-frame-options"] == "DENY"
    assert "İstek anlaşılamadı" in body.decode()
    assert len(lines) == 1 and "refused with 400" in lines[0], lines
    assert "Traceback" not in "".join(lines)


def test_a_file_and_an_oversized_body_are_refused_with_our_page(server):
    gunicorn, log = server
    client = Client(gunicorn.port)
    client.get("/yeni/")
    upload = (
        b'--b\r\nContent-Disposition: form-data; name="f"; filename="a.png"\r\n\r\n'
        + b"A" * 100_000  # over the 64 KB cap; small enough to be sent before the answer
        + b"\r\n--b--\r\n"
    )

    lines, (status, headers, body) = log_growth(
        log,
        lambda: client.request(
            "POST", "/yeni/", upload, {"Content-Type": "multipart/form-data; boundary=b"}
        ),
    )

    assert status == 413
    assert "İstek çok büyük" in body.decode()
    assert len(lines) == 1 and "refused with 413" in lines[0], lines
