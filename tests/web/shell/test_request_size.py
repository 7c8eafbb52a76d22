"""Request size: the largest real forms, the cap set from them, and files (no form takes one).

Run with -s to see the measured sizes.
"""

import re
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.test import Client

from cetele.models import Change, Hand, HousePreset, Match
from tests.factories import form_data, make_match, sample_inputs
from tests.web.endpoints import fill, make_keys, post_routes

pytestmark = pytest.mark.django_db

# The widest character a phone keyboard types (an emoji): 4 bytes, 12 once percent-encoded.
WIDE = "😀"


def largest_hand_form() -> dict:
    """A 4-player hand, every seat with 10 penalties carrying every field a penalty has."""
    inputs = sample_inputs(4)
    penalty = {"kind": "islek_discard", "taken": True, "tile": 13, "by": 3, "points": 10**9}
    for seat in inputs["players"]:
        seat.update(okeys=2, fake_okeys=2, opening=999, cifte_devam=True)
        seat["penalties"] = [dict(penalty) for _ in range(10)]
    inputs["okey_number"] = 13
    return form_data(inputs, token="x" * 64, version=10**9)


def largest_editor_form(client: Client) -> dict:
    """Every field of the preset editor as its page renders it, name and description at their
    longest in the widest characters."""
    html = client.get("/kurallar/yeni/").content.decode()
    fields = {}
    for tag in re.findall(r"<input[^>]*>", html):
        name, value = re.search(r'name="([^"]+)"', tag), re.search(r'value="([^"]*)"', tag)
        if name and value and ('type="radio"' not in tag or " checked" in tag):
            fields[name[1]] = value[1]  # every checkbox ticked, each radio as chosen
    fields.update(dict.fromkeys(re.findall(r'<textarea[^>]*name="([^"]+)"', html), ""))
    for name, options in re.findall(r'<select[^>]*name="([^"]+)"[^>]*>(.*?)</select>', html, re.S):
        fields[name] = max(re.findall(r'value="([^"]*)"', options), key=len)
    for name, limit in (("name", 80), ("description", 500)):
        (key,) = [field for field in fields if field.endswith(name)]
        fields[key] = WIDE * limit
    fields["action"] = "save"
    return fields


def test_the_cap_leaves_the_largest_real_forms_ample_headroom(client):
    hand = urlencode(largest_hand_form()).encode()
    editor = urlencode(largest_editor_form(client)).encode()

    print(f"\nlargest hand form {len(hand):,} B, largest editor form {len(editor):,} B")
    assert len(hand) * 4 <= settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    assert len(editor) * 4 <= settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    assert len(largest_hand_form()) * 2 <= settings.DATA_UPLOAD_MAX_NUMBER_FIELDS


def test_the_largest_hand_form_is_accepted_by_the_server(client):
    match = make_match()

    response = client.post(
        f"/m/{match.edit_token}/el/",
        urlencode(largest_hand_form()),
        content_type="application/x-www-form-urlencoded",
    )

    # Whatever the engine makes of it, the body itself was read (no 400/413).
    assert response.status_code in (200, 302)


def test_the_largest_editor_form_saves(client):
    response = client.post(
        "/kurallar/yeni/",
        urlencode(largest_editor_form(client)),
        content_type="application/x-www-form-urlencoded",
    )

    assert response.status_code == 302
    assert HousePreset.objects.get().name == WIDE * 80


def snapshot() -> tuple:
    return (Match.objects.count(), Hand.objects.count(), Change.objects.count())


def test_a_body_over_the_cap_is_refused_unread_on_every_post_endpoint():
    routes = post_routes()
    keys = make_keys()
    client = Client()
    body = b"a=" + b"x" * settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    before = snapshot()

    for route in routes:
        keys.refresh()
        for content_type in (
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=b",
        ):
            response = client.generic("POST", fill(route, keys), body, content_type=content_type)
            assert response.status_code == 413, route
            assert "İstek çok büyük" in response.content.decode()
            assert "Content-Security-Policy" in response.headers
    assert snapshot() == before


def multipart_with_a_file(fields: dict) -> bytes:
    parts = [
        f'--b\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'
        for name, value in fields.items()
    ]
    parts.append(
        '--b\r\nContent-Disposition: form-data; name="photo"; filename="a.png"\r\n'
        "Content-Type: image/png\r\n\r\n" + "A" * 2000 + "\r\n--b--\r\n"
    )
    return "".join(parts).encode()


def test_a_file_is_refused_on_every_post_endpoint_and_nothing_is_saved():
    routes = post_routes()
    keys = make_keys()
    client = Client()
    before = snapshot()

    for route in routes:
        keys.refresh()
        body = multipart_with_a_file(form_data(sample_inputs()))
        response = client.generic(
            "POST", fill(route, keys), body, content_type="multipart/form-data; boundary=b"
        )
        assert response.status_code == 400, route
        assert "dosya almaz" in response.content.decode()
    assert snapshot() == before


def test_a_multipart_form_without_files_still_works(client):
    match = make_match()

    # Django's test client posts multipart, as a browser may: only files are refused.
    response = client.post(f"/m/{match.edit_token}/el/", form_data(sample_inputs()))

    assert response.status_code == 302
    assert match.hands.count() == 1


# Bodies a form, a phone or a fuzzer may send: repeated and blank fields, "+" and escapes, a
# wide character, a semicolon, a bare key, broken escapes, bytes that are not UTF-8.
