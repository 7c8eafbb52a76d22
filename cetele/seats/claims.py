"""Which phone is which player: the seat a phone takes through the join link, kept in its
signed cookie as the claim's random key.

The cookie holds only claim keys (SeatClaim.key), never a seat or a match: a key names its claim
and nothing else, and the server finds it among the match's claims. It is sent only under /k/
(the join link's pages), signed (a phone cannot write one), and a rotated join link or a freed
seat deletes the claim, so the key opens nothing any more.
"""

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.http import HttpRequest, HttpResponse

from cetele.models import Match
from cetele.seats.models import SeatClaim

CLAIMS_COOKIE = "cetele_seats"
CLAIMS_PATH = "/k/"
CLAIMS_MAX = 20  # matches a phone has joined lately (the oldest is dropped)
CLAIMS_DAYS = 30


class SeatTaken(Exception):
    """Another phone has this seat (it asked first, or at the same moment and won)."""


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


def take_seat(match: Match, seat: int) -> SeatClaim:
    """The seat for this phone, or SeatTaken. No check before the insert: the unique constraint
    decides, so that two phones asking at the same moment get the same answer as one asking
    after the other (one gets the seat, the other a sentence)."""
    try:
        with transaction.atomic():
            claim = SeatClaim.objects.create(match=match, seat=seat)
            seats_changed(match)
            return claim
    except IntegrityError as error:
        raise SeatTaken() from error


def seats_changed(match: Match) -> None:
    """Who has a phone is part of what the rows' poll shows (cetele.seats.drafts): a seat taken
    or freed is news to the scorer's page, like a row written."""
    Match.objects.filter(pk=match.pk).update(draft_version=F("draft_version") + 1)


def taken_seats(match: Match) -> set[int]:
    return set(match.seat_claims.values_list("seat", flat=True))


def free_seat(match: Match, seat: int) -> bool:
    """Let the phone on this seat go (the scorer's "Yeri boşalt"); False if it was free. The
    rows that phone wrote go with it: the seat may have been taken by the wrong phone, and what
    it wrote must not stay on the scorer's form nor greet the player who takes the seat next."""
    with transaction.atomic():
        deleted, _kinds = SeatClaim.objects.filter(match=match, seat=seat).delete()
        if deleted:
            match.draft_rows.filter(seat=seat).delete()
            seats_changed(match)
    return bool(deleted)


def let_every_phone_go(match: Match) -> None:
    """The join link was rotated: no phone keeps its seat (nor the rows it wrote)."""
    with transaction.atomic():
        SeatClaim.objects.filter(match=match).delete()
        match.draft_rows.all().delete()
        seats_changed(match)
