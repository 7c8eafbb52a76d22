"""Links are the keys: looking a match up by its edit or view token, the headers every match
page carries, and what a phone is told of a link that changed.

There are no accounts. Whoever holds the edit link (`/m/<edit_token>/`) may change the match;
whoever holds the view link (`/v/<view_token>/`) may only read it. An unknown or malformed token
gets the same 404, whoever asks and however often: a link is 256 bits from `secrets`, which no
number of guesses finds, so refusing those who miss would stop no guesser and only lock out the
honest phones sharing their address (a café's Wi-Fi, a carrier's NAT). A valid link always opens
(docs/decisions.md, "Missed links are not counted"). A link that worked once and was rotated or
deleted is answered "this link changed".
"""

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import wraps

from django.conf import settings
from django.core import signing
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.cache import add_never_cache_headers, patch_cache_control
from django.utils.crypto import salted_hmac
from django.utils.http import http_date
from django.utils.translation import gettext as _
from django_htmx.http import HttpResponseStopPolling, reswap, trigger_client_event

import scoring
from cetele.live.push import stream_url
from cetele.models import HOUSE_PREFIX, HousePreset, Match, RetiredLink
from cetele.shell.refusals import refusal

EDIT, VIEW = "edit", "view"
JOIN = "join"  # "Masaya katıl": a player's own phone (cetele.seats)
TOKEN_FIELDS = {EDIT: "edit_token", VIEW: "view_token", JOIN: "join_token"}

# The URL names each role links to, so that one template (the sheet) serves both roles.
URL_NAMES = {
    EDIT: {
        "page": "matches:match_detail",
        "hand": "matches:hand_detail",
        "rules": "matches:match_rules",
        "poll": "sharing:match_poll",
    },
    VIEW: {
        "page": "sharing:view_match",
        "hand": "sharing:view_hand",
        "rules": "matches:view_rules",
        "poll": "sharing:view_poll",
    },
    JOIN: {
        "page": "seats:join_match",
        "hand": "sharing:join_hand",
        "rules": "matches:join_rules",
        "poll": "sharing:join_poll",
    },
}

MAX_TOKEN_LENGTH = 64


class BadLink(Http404):
    """No match has this token (unknown, rotated or malformed): the same 404 as any other."""


def match_by_token(role: str, token: str) -> Match:
    """The match this link opens, or BadLink. Opening it counts as using it (at most one write
    a day): `forget_unused` never deletes a match people still look at. The preset the rules
    were made from (base_rules) is read only by the rules page, when asked."""
    try:
        match = Match.objects.defer("base_rules").get(**{TOKEN_FIELDS[role]: token})
    except Match.DoesNotExist as error:
        raise BadLink() from error
    match.touch()
    return match


@dataclass(frozen=True)
class PolledMatch:
    """A match as a poll reads it first (one indexed query): whether it changed, and what names
    a kept drawing. The whole match is read only then: read at every poll, its row cost 0.4 ms
    more a poll, mostly the ORM writing its query (bench/profile.py poll, 2026-12-05)."""

    pk: int
    version: int
    draft_version: int
    created_at: datetime
    touched_at: datetime
    token: str  # the link the poll came through

    FIELDS = ("pk", "version", "draft_version", "created_at", "touched_at")


def polled_match(role: str, token: str) -> PolledMatch:
    """The match this link opens as a live page's poll reads it, or BadLink: not a visit
    (nothing written; Forgettable.touch)."""
    found = Match.objects.filter(**{TOKEN_FIELDS[role]: token}).values_list(*PolledMatch.FIELDS)
    if not found:
        raise BadLink()
    return PolledMatch(*found[0], token=token)


def link_context(match: Match, role: str) -> dict:
    """What a template needs to link within the match as this role, and nothing more: a viewer's
    page must never contain the edit token."""
    return {
        "role": role,
        "token": getattr(match, TOKEN_FIELDS[role]),
        "urls": URL_NAMES[role],
        "match_key": match.phone_key,  # how this phone's lists know it (Match.phone_key)
        "stream": stream_url(getattr(match, TOKEN_FIELDS[role])),  # cetele.live.push
    }


# --- Links that worked once ------------------------------------------------------------------

# A signed cookie holding a short mark of each link this browser opened successfully: a deleted
# match's link, opened again from a browser that had it, is told "this match was deleted" (anyone
# else gets the plain 404: a deletion leaves no trace); the live poll's fast path answers only a
# browser that holds the mark (cetele.live.fastpoll). Nobody can make a mark for a link.
SEEN_COOKIE = "cetele_links"
SEEN_MAX = 30
SEEN_DAYS = 30


def link_mark(token: str) -> str:
    """The short mark of a link that a browser's seen-links cookie holds (keyed with the
    SECRET_KEY: a new secret makes new marks)."""
    return salted_hmac("cetele.seen-link", token).hexdigest()[:16]


def seen_marks(request: HttpRequest) -> tuple[str, ...]:
    """The marks in this request's signed cookie: none if it has none or its signature is
    wrong (Django's get_signed_cookie, which also accepts SECRET_KEY_FALLBACKS)."""
    value = request.get_signed_cookie(SEEN_COOKIE, default="", salt=SEEN_COOKIE)
    return tuple(value.split(".")) if value else ()


def marks_in(cookie: str) -> tuple[str, ...]:
    """The marks a seen-links cookie's text holds, read as seen_marks reads a request's: for a
    cookie outside a request (the fast poll's, a response's own)."""
    if not cookie:
        return ()
    request = HttpRequest()
    request.COOKIES = {SEEN_COOKIE: cookie}
    return seen_marks(request)


def remember_link(
    request: HttpRequest,
    response: HttpResponse,
    *tokens: str,
    marks: tuple[str, ...] | None = None,
) -> None:
    """Add these links' marks to this browser's cookie, newest first; `marks` are the request's
    when the caller has read them already. Several calls on one response add up (a view hands
    over a new link, then secret_link marks the one it opened): a cookie the response already
    sets is what the next call adds to."""
    sent = response.cookies.get(SEEN_COOKIE)
    if sent is not None:
        marks = marks_in(sent.value)
    elif marks is None:
        marks = seen_marks(request)
    new = [mark for mark in dict.fromkeys(link_mark(t) for t in tokens if t) if mark not in marks]
    if not new:
        return
    marks = (*new, *marks)[:SEEN_MAX]
    response.set_signed_cookie(
        SEEN_COOKIE,
        ".".join(marks),
        salt=SEEN_COOKIE,
        max_age=SEEN_DAYS * 86400,
        secure=settings.CSRF_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def hand_over(request: HttpRequest, response: HttpResponse, *tokens: str) -> HttpResponse:
    """A link the app has just made or given to this browser (a new match, rematch, table or
    house preset, a rotated link) is this browser's: marked as opened, as if it had opened it.
    Returns the response (the redirect to it)."""
    remember_link(request, response, *tokens)
    return response


def retired_or_missing(request: HttpRequest, token: str) -> HttpResponse:
    """No object has this token. A rotated link: "this link changed". A deleted match's link,
    from a browser that had it open (its signed cookie holds the link's mark): "this match was
    deleted", which tells it nothing it did not know; from anyone else the same 404 as an
    unknown link (a deletion leaves no trace). Anything else is the plain 404, never counted."""
    retired = RetiredLink.find(token) if token else None
    if retired is not None and not retired.deleted:
        return link_changed(request)
    if retired is not None and is_match_path(request) and link_mark(token) in seen_marks(request):
        return match_deleted(request)
    raise Http404()


def is_match_path(request: HttpRequest) -> bool:
    """A match's page or fragment (/m/…, /v/…, /k/…), not a table's or a house preset's."""
    return request.path.startswith(("/m/", "/v/", "/k/"))


def link_gone(request: HttpRequest, event: str, reason: str, title, message) -> HttpResponse:
    """A link that worked once and works no more, to a browser that had it. A live page's poll
    gets 286 (htmx stops polling) with nothing to swap; anything else gets our 410 page saying
    so. Both carry `event`, which app.js answers by saying so on an open page."""
    if is_poll(request):
        response = reswap(HttpResponseStopPolling(), "none")
    else:
        response = refusal(request, 410, reason, title=title, message=message, log=False)
    return trigger_client_event(response, event)


def match_deleted(request: HttpRequest) -> HttpResponse:
    """A deleted match, to a browser that had it open: app.js takes the sheet away."""
    return link_gone(
        request,
        "cetele:match-deleted",
        "deleted match",
        _("Bu maç silindi"),
        _("Çeteleyi tutan kişi bu maçı oyuncu adları, eller ve geçmişiyle birlikte sildi."),
    )


def is_poll(request: HttpRequest) -> bool:
    """A live page's poll (match.html#sheet), sent by htmx."""
    route = (request.resolver_match and request.resolver_match.url_name) or ""
    return bool(request.htmx) and route.endswith("poll")


def link_changed(request: HttpRequest) -> HttpResponse:
    """A rotated or deleted link: not a guess, so not counted."""
    return link_gone(
        request,
        "cetele:link-changed",
        "retired link",
        _("Bu bağlantı değişti"),
        _(
            "Bu bağlantı yenilendi ve artık çalışmıyor. Güncelini, bağlantıyı size gönderen "
            "kişiden isteyin."
        ),
    )


# --- The decorator every match page and fragment wears ----------------------------------------


def secret_link(*, role: str | None = None, finds: Callable | None = match_by_token) -> Callable:
    """Guard a view reached through a link, hand it the match the link opens, and mark its
    response private.

    `role`: the link the view is reached through; None for a page served to several links, one
    view for them all, whose URL patterns name the role (their `role` keyword, passed on to the
    view): the role is read there, once, never guessed from the token.

    `finds`: how the match is looked up by role and token, once, here: a visit (`match_by_token`)
    or a poll (`polled_match`); the view gets it as `match` in place of `token`, and never looks
    a match up by its link. It locks nothing: a write takes the match's writer lock itself, in
    its transaction. None for a table's, a tournament's or a house preset's link: the view gets
    `token` and finds what it opens.

    A valid link always opens, from any address and however many misses came from it. A BadLink
    becomes the same plain 404 as any other, unless the link worked once and was rotated or
    deleted: then it is answered as such (link_changed, match_deleted). An edit page is kept out
    of every cache (the edit link must not linger), a view page is revalidated each time; every
    response whose URL holds a key is kept out of search engines by KeyedUrlHeadersMiddleware.
    (Referrer-Policy: same-origin is global: SECURE_REFERRER_POLICY.)
    """

    def decorator(view: Callable) -> Callable:
        @wraps(view)
        def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            token = kwargs.get("token", "")
            link_role = role or kwargs["role"]
            try:
                if finds is not None:
                    kwargs["match"] = finds(link_role, kwargs.pop("token"))
                response = view(request, *args, **kwargs)
            except (BadLink, Match.DoesNotExist):
                # Match.DoesNotExist: deleted by another phone while this request ran.
                return retired_or_missing(request, token)
            if response.status_code < 400 and token:
                remember_link(request, response, token)
            # X-Robots-Tag, and no-store for anything else: cetele.shell.middleware.KeyedUrlHeaders.
            keep_out_of_caches(response, link_role)
            return response

        return wrapper

    return decorator


def keep_out_of_caches(response: HttpResponse, role: str) -> None:
    """An edit or join page never cached (the link must not linger: it writes), a view page
    revalidated each time."""
    if role == VIEW:
        patch_cache_control(response, private=True, no_cache=True)
    else:
        add_never_cache_headers(response)


def http_date_now() -> str:
    """Django's http_date for now: a never-cache response's Expires."""
    return http_date(time.time())


# --- House-preset keys in a query or a form (?from=, ?preset=house:, preset=house:) ----------


def house_keys_named(request: HttpRequest, query: tuple, form: tuple) -> list[str]:
    """The house-preset view tokens this request names outside its path, in the query
    parameters `query` and the form fields `form` the view reads: `house:<key>` anywhere, and
    for `from` (the editor's source) anything but a built-in preset's slug."""
    named = [(request.GET, name) for name in query]
    if request.method == "POST":
        named += [(request.POST, name) for name in form]
    keys = []
    for source, name in named:
        for value in source.getlist(name):
            if value.startswith(HOUSE_PREFIX):
                keys.append(value.removeprefix(HOUSE_PREFIX))
            elif name == "from" and value and value not in scoring.PRESETS:
                keys.append(value)
    return keys


def house_keys_guarded(*, query: tuple = (), form: tuple = ()) -> Callable:
    """Look up every house-preset key the request names the way secret_link looks up a link: a
    miss answered with the same 404, a rotated or deleted key answered "this link changed". The
    view then finds the preset."""

    def decorator(view: Callable) -> Callable:
        @wraps(view)
        def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            keys = house_keys_named(request, query, form)
            for key in keys:
                if len(key) > MAX_TOKEN_LENGTH:
                    return retired_or_missing(request, "")
                if not HousePreset.objects.filter(view_token=key).exists():
                    return retired_or_missing(request, key)
            response = view(request, *args, **kwargs)
            if response.status_code < 400:
                remember_link(request, response, *keys)
            return response

        return wrapper

    return decorator


@secret_link(role=VIEW, finds=None)
def bad_link(request: HttpRequest, path: str = "") -> HttpResponse:
    """Any other path under /m/ or /v/ (a malformed token): the 404 of an unknown token."""
    raise BadLink()


# --- What a deletion tells this phone to forget (?silindi=) --------------------------------

# After a deletion the phone is sent to a list page naming what its app.js should drop from
# this phone (its "Maçlarım", kept pages and waiting hands; its house presets). Only the app's
# own deletion answer is believed: the value is signed, and a forged one (the view page shows a
# match's key to whoever holds the view link) or an old one is ignored, wiping nothing.
FORGET_PARAM = "silindi"
FORGET_SALT = "cetele.forget"
FORGET_MAX_AGE = 600  # seconds: the redirect is followed at once


def forget_value(keys: list[str]) -> str:
    """The signed ?silindi= value naming these phone-side keys."""
    return signing.dumps(",".join(keys), salt=FORGET_SALT)


def forgotten(request: HttpRequest) -> str:
    """The keys (comma separated) this request's ?silindi= names if the app signed it lately,
    else "": a list page hands them to app.js."""
    value = request.GET.get(FORGET_PARAM, "")
    if not value:
        return ""
    try:
        keys = signing.loads(value, salt=FORGET_SALT, max_age=FORGET_MAX_AGE)
    except signing.BadSignature:  # forged, altered or expired (SignatureExpired)
        return ""
    return keys if isinstance(keys, str) else ""
