"""One phone, one seat of a match: the phone's own key (a signed cookie under /k/ only, never
kept on the server) makes its claim's key, so a second name tapped on the same phone is answered
with the first. (Two names tapped at the same moment, against real servers:
tests/web/seats/test_join_link_races.py.)"""

import pytest
from django.test import Client

from cetele.seats.claims import CLAIMS_COOKIE, PHONE_COOKIE
from cetele.seats.models import SeatClaim
from tests.factories import make_match
from tests.web.phones import join

pytestmark = pytest.mark.django_db


def test_the_pick_page_gives_the_phone_its_key_under_the_join_link_only_and_signed():
    match = make_match(hands=1)
    phone = Client()

    phone.get(join("seats:join_match", match))

    cookie = phone.cookies[PHONE_COOKIE]
    assert cookie["path"] == "/k/" and cookie["httponly"] and cookie["samesite"] == "Lax"
    key = cookie.value.split(":")[0]  # signed: the key, then its signature
    assert len(key) >= 32 and cookie.value != key
    phone.post(join("seats:join_match", match), {"seat": "1"})
    claim = SeatClaim.objects.get()
    assert key not in claim.key  # the server keeps the claim's key, never the phone's
    assert phone.cookies[PHONE_COOKIE].value == cookie.value  # the same phone, the same key


def test_a_second_name_on_the_same_phone_is_answered_with_its_first_seat():
    """Even from a page drawn before the first pick, or after the claims' cookie was lost: the
    phone's key names its seat."""
    match = make_match(hands=1)
    phone = Client()
    phone.get(join("seats:join_match", match))
    assert phone.post(join("seats:join_match", match), {"seat": "1"}).status_code == 302
    del phone.cookies[CLAIMS_COOKIE]  # the claims' cookie gone, the phone's key kept

    response = phone.post(join("seats:join_match", match), {"seat": "2"}, follow=True)

    page = response.content.decode()
    assert "Bu telefonda zaten Ayşe olarak yazıyorsunuz." in page
    assert 'data-phone-of="1"' in page  # its page again, as the seat it holds
    assert list(SeatClaim.objects.values_list("seat", flat=True)) == [1]


def test_a_forged_phone_key_is_not_another_phones_and_takes_its_own_seat():
    match = make_match(hands=1)
    first = Client()
    first.get(join("seats:join_match", match))
    assert first.post(join("seats:join_match", match), {"seat": "1"}).status_code == 302
    forger = Client()
    forger.cookies[PHONE_COOKIE] = first.cookies[PHONE_COOKIE].value.split(":")[0]  # unsigned

    response = forger.post(join("seats:join_match", match), {"seat": "2"})

    assert response.status_code == 302
    assert sorted(SeatClaim.objects.values_list("seat", flat=True)) == [1, 2]


def test_a_phones_claims_at_two_matches_are_not_one_key():
    phone = Client()
    keys = []
    for match in (make_match(hands=1), make_match(hands=1)):
        phone.get(join("seats:join_match", match))
        assert phone.post(join("seats:join_match", match), {"seat": "0"}).status_code == 302
        keys.append(SeatClaim.objects.get(match=match).key)
    assert keys[0] != keys[1]
