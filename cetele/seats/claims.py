"""Which phone is which player: the seat a phone takes through the join link, kept in its
signed cookie as the claim's key.

The cookie holds only claim keys (SeatClaim.key), never a seat or a match: a key names its claim
and nothing else, and the server finds it among the match's claims. It is sent only under /k/
(the join link's pages), signed (a phone cannot write one), and a rotated join link or a freed
seat deletes the claim, so the key opens nothing any more.

A second signed cookie (PHONE_COOKIE) holds the phone's own random key, given with the first pick
page: a claim's key is made from it and the match (`seat_key`), so that one phone holds at most
one seat of a match (the key is unique), even when it taps two names at the same moment.

Every write a joined phone makes as its player runs under the match's writer lock (the row lock
every change to the sheet takes, Match._lock) with its claim looked for after the lock
(`seat_held`); taking, freeing and the rotation take the same lock. So a rotation or a "Yeri
boşalt" and a phone's write never interleave: whichever comes second sees the first.
"""

from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.http import HttpRequest, HttpResponse
from django.utils.crypto import salted_hmac

from cetele.live import push
from cetele.models import Match
from cetele.seats.models import SeatClaim, new_claim_key
from cetele.sharing.links import BadLink

CLAIMS_COOKIE = "cetele_seats"
CLAIMS_PATH = "/k/"
CLAIMS_MAX = 20  # matches a phone has joined lately (the oldest is dropped)
CLAIMS_DAYS = 30
PHONE_COOKIE = "cetele_phone"


class SeatTaken(Exception):
    """Another phone has this seat (it asked first, or at the same moment and won)."""


class AlreadySeated(Exception):
    """This phone holds a seat of this match already (a second name tapped at the same moment,
    or a pick page drawn before the first): `claim` is that seat's."""

    def __init__(self, claim: SeatClaim) -> None:
        super().__init__()
        self.claim = claim


class SeatFreed(Exception):
    """This phone's seat was freed ("Telefonu çıkar") before its write got the lock: nothing is
    written."""


def claim_keys(request: HttpRequest) -> list[str]:
    """The claim keys in this phone's signed cookie (none if it was altered)."""
    value = request.get_signed_cookie(CLAIMS_COOKIE, default="", salt=CLAIMS_COOKIE)
    return [key for key in value.split(".") if key] if value else []


def claim_of(request: HttpRequest, match: Match) -> SeatClaim | None:
    """This phone's seat at this match, or None: one indexed query, none without a cookie."""
    keys = claim_keys(request)
    if not keys:
        return None
    return SeatClaim.objects.filter(match=match, key__in=keys).first()


def remember_claim(request: HttpRequest, response: HttpResponse, claim: SeatClaim) -> None:
    """Keep the claim's key in this phone's cookie, newest first."""
    keys = [claim.key, *(key for key in claim_keys(request) if key != claim.key)][:CLAIMS_MAX]
    response.set_signed_cookie(
        CLAIMS_COOKIE,
        ".".join(keys),
        salt=CLAIMS_COOKIE,
        max_age=CLAIMS_DAYS * 86400,
        path=CLAIMS_PATH,
        secure=settings.CSRF_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def phone_of(request: HttpRequest) -> str:
    """This phone's own key (none yet, or altered: "")."""
    return request.get_signed_cookie(PHONE_COOKIE, default="", salt=PHONE_COOKIE)


def remember_phone(response: HttpResponse, phone: str) -> None:
    """Keep the phone's key in its cookie, under /k/ only, like the claims."""
    response.set_signed_cookie(
        PHONE_COOKIE,
        phone,
        salt=PHONE_COOKIE,
        max_age=CLAIMS_DAYS * 86400,
        path=CLAIMS_PATH,
        secure=settings.CSRF_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def phone_for(request: HttpRequest, response: HttpResponse) -> str:
    """This phone's key, given to it (in `response`) when it has none: the pick page gives it,
    so that the names it taps from that page are known as one phone's."""
    phone = phone_of(request)
    if not phone:
        phone = new_claim_key()
        remember_phone(response, phone)
    return phone


def seat_key(match: Match, phone: str) -> str:
    """The key of this phone's claim at this match: one phone, one key per match, and the key is
    unique, so a second seat for the same phone is refused by the database too. Keyed with the
    SECRET_KEY: no one can make another phone's key from its cookie's value."""
    return salted_hmac("cetele.seat-claim", f"{match.pk}:{phone}", algorithm="sha256").hexdigest()


def lock(match: Match) -> Match:
    """Take the match's writer lock for the rest of the transaction: the row lock every change
    to the sheet takes (Match._lock; SQLite's IMMEDIATE transactions already serialise writers).
    Match.DoesNotExist when the match was deleted meanwhile."""
    return Match.objects.select_for_update().only("id", "join_token").get(pk=match.pk)


def lock_join_link(match: Match) -> None:
    """Take the match's writer lock and read its join link after it, in the same statement: a
    rotation that committed while this waited is seen, and the request is answered as the
    rotated link it now is (BadLink), as it would be a moment later."""
    if lock(match).join_token != match.join_token:
        raise BadLink()


def take_seat(match: Match, seat: int, phone: str) -> SeatClaim:
    """The seat for this phone: SeatTaken when another phone has it, AlreadySeated when this
    phone has one here already, BadLink when the join link was rotated meanwhile. Under the
    match's lock, so two names tapped on one phone at the same moment are one after the other,
    and a rotation either comes after (and frees the seat) or before (and the old link is
    refused). The seat itself is not looked for first: the unique constraint decides."""
    try:
        with transaction.atomic():
            lock_join_link(match)
            key = seat_key(match, phone)
            held = SeatClaim.objects.filter(match=match, key=key).first()
            if held is not None:
                raise AlreadySeated(held)
            claim = SeatClaim.objects.create(match=match, seat=seat, key=key)
            seats_changed(match)
            return claim
    except IntegrityError as error:
        raise SeatTaken() from error


@contextmanager
def seat_held(match: Match, claim: SeatClaim) -> Iterator[None]:
    """A transaction holding the match's writer lock, for a write this phone makes as its player
    (its row, a gösterge, an objection): inside it the join link is the one the phone used (else
    BadLink) and its claim is still there (else SeatFreed), and no rotation nor "Telefonu çıkar"
    can come between that check and the write."""
    with transaction.atomic():
        lock_join_link(match)
        if not SeatClaim.objects.filter(pk=claim.pk).exists():
            raise SeatFreed()
        yield


def seats_changed(match: Match) -> None:
    """Who has a phone is part of what the rows' poll shows (cetele.seats.drafts): a seat taken
    or freed is news to the scorer's page, like a row written."""
    Match.objects.filter(pk=match.pk).update(draft_version=F("draft_version") + 1)
    push.announce(Match.objects.filter(pk=match.pk))


def taken_seats(match: Match) -> set[int]:
    return set(match.seat_claims.values_list("seat", flat=True))


def free_seat(match: Match, seat: int) -> bool:
    """Let the phone on this seat go (the scorer's "Telefonu çıkar"); False if it was free. The
    rows that phone wrote go with it: the seat may have been taken by the wrong phone, and what
    it wrote must not stay on the scorer's form nor greet the player who takes the seat next."""
    with transaction.atomic():
        # The lock a phone's write holds (seat_held): its row is written before, and deleted
        # here, or refused after.
        lock(match)
        deleted, _kinds = SeatClaim.objects.filter(match=match, seat=seat).delete()
        if deleted:
            match.draft_rows.filter(seat=seat).delete()
            seats_changed(match)
    return bool(deleted)


def rotate_join_link(match: Match) -> None:
    """A new join link: the old one stops working and no phone keeps its seat (nor the rows it
    wrote). One transaction under the match's lock: a phone picking its name or writing through
    the old link does so before (and is let go here) or after (and is refused), never between."""
    with transaction.atomic():
        lock(match)
        match.rotate_token("join")
        SeatClaim.objects.filter(match=match).delete()
        match.draft_rows.all().delete()
        seats_changed(match)
