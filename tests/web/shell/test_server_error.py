"""Our own failure (500): our page, in the phone's language, with our headers and kept out of
every cache; nothing of the request in it (its path may hold a key). Before: Django's bare
English "Server Error (500)" page, cacheable, without X-Robots-Tag on a non-keyed URL."""

import pytest
from django.test import Client

from tests.factories import make_match

pytestmark = pytest.mark.django_db


def broken(*args, **kwargs):
    raise RuntimeError("the sheet could not be drawn")


def failing_client() -> Client:
    return Client(raise_request_exception=False)


@pytest.mark.parametrize("role", ["edit", "view"])
def test_a_failure_on_a_match_page_is_our_500_page_without_the_key(monkeypatch, role):
    match = make_match(hands=1)
    token = match.edit_token if role == "edit" else match.view_token
    url = f"/m/{token}/" if role == "edit" else f"/v/{token}/"
    monkeypatch.setattr("cetele.matches.sheet.draw", broken)

    response = failing_client().get(url)

    html = response.content.decode()
    assert response.status_code == 500
    assert "Bir sorun çıktı" in html and '<html lang="tr">' in html
    assert "Server Error" not in html
    assert "no-store" in response["Cache-Control"] and "Expires" in response
    assert response["X-Robots-Tag"] == "noindex, nofollow"
    assert "Content-Security-Policy" in response and response["X-Frame-Options"] == "DENY"
    assert response["Referrer-Policy"] == "same-origin"
    everything = html + "".join(f"{name}: {value}" for name, value in response.items())
    for key in (match.edit_token, match.view_token):
        assert key not in everything
    assert "csrfmiddlewaretoken" not in html and "Ali" not in html


def test_a_failure_anywhere_is_kept_out_of_caches_and_speaks_the_chosen_language(monkeypatch):
    client = failing_client()
    client.cookies["django_language"] = "en"
    monkeypatch.setattr("cetele.matches.views.TemplateResponse", broken)

    response = client.get("/")

    assert response.status_code == 500
    assert "Something went wrong" in response.content.decode()
    assert "no-store" in response["Cache-Control"]
    assert response["X-Robots-Tag"] == "noindex, nofollow"
