"""Middleware of our own."""

import ipaddress
import re
import secrets
from functools import lru_cache
from urllib.parse import parse_qsl, unquote

import django_htmx.middleware
from django.conf import settings
from django.core.exceptions import (
    BadRequest,
    RequestDataTooBig,
    SuspiciousOperation,
    TooManyFieldsSent,
)
from django.db import OperationalError
from django.http import HttpRequest, HttpResponse, QueryDict, UnreadablePostError
from django.http.multipartparser import MultiPartParserError
from django.middleware.csrf import (
    CSRF_ALLOWED_CHARS,
    CSRF_SECRET_LENGTH,
    CsrfViewMiddleware,
    get_token,
)
from django.middleware.locale import LocaleMiddleware
from django.utils import translation
from django.utils.cache import add_never_cache_headers
from django.utils.datastructures import MultiValueDict
from django.utils.translation import gettext as _

import scoring
from cetele.refusals import refusal, write_refused


class CsrfWithNoReferrerMiddleware(CsrfViewMiddleware):
    """Django's CSRF protection, made to work with `Referrer-Policy: no-referrer`.

    Match links are keys, so pages send no Referer anywhere. Under that policy browsers send
    `Origin: null` with every POST, even same-origin ones, which Django's origin check
    rejects. A browser that sends `Sec-Fetch-Site: same-origin` (a header page scripts cannot
    set) has itself verified that the request comes from our own pages, so that is accepted in
    place of the Origin; the CSRF token is still checked as usual. Anything else (a real
    foreign origin, `null` from a sandboxed or cross-site context) goes through Django's check.
    """

    def _origin_verified(self, request) -> bool:
        if (
            request.META.get("HTTP_ORIGIN") == "null"
            and request.META.get("HTTP_SEC_FETCH_SITE") == "same-origin"
        ):
            return True
        return super()._origin_verified(request)


CSRF_CHAR_INDEX = {char: index for index, char in enumerate(CSRF_ALLOWED_CHARS)}
CSRF_BYTE_CEILING = 256 - 256 % len(CSRF_ALLOWED_CHARS)  # bytes from it up would bias the mask


def form_token(request: HttpRequest) -> str:
    """The CSRF token for a form, as Django's get_token makes it (the cookie's secret under a
    fresh random mask, against BREACH; the cookie sent again), with the mask drawn from one read
    of the system's random source: get_random_string asks it once per character, 33 µs of every
    save and page (bench/profile.py). A request without the secret yet is Django's to give one."""
    secret = request.META.get("CSRF_COOKIE")
    if secret is None:
        return get_token(request)
    request.META["CSRF_COOKIE_NEEDS_UPDATE"] = True
    mask = random_csrf_chars(CSRF_SECRET_LENGTH)
    size = len(CSRF_ALLOWED_CHARS)
    cipher = (
        CSRF_ALLOWED_CHARS[(CSRF_CHAR_INDEX[s] + CSRF_CHAR_INDEX[m]) % size]
        for s, m in zip(secret, mask, strict=True)
    )
    return mask + "".join(cipher)


def random_csrf_chars(length: int) -> str:
    """`length` characters drawn uniformly from CSRF_ALLOWED_CHARS (a byte at or over the ceiling
    is drawn again, so that none is likelier than another)."""
    size = len(CSRF_ALLOWED_CHARS)
    chars: list[str] = []
    while len(chars) < length:
        draw = secrets.token_bytes(length + 8)
        chars += [CSRF_ALLOWED_CHARS[b % size] for b in draw if b < CSRF_BYTE_CEILING]
    return "".join(chars[:length])


class HtmxDetails(django_htmx.middleware.HtmxDetails):
    """django-htmx's request.htmx, its headers read from request.META. django-htmx reads them
    from request.headers, which Django builds from every header on first use, for them alone:
    20 µs of a save (bench/profile.py). The same values: tests/web/test_foundation.py compares
    every attribute of both on each kind of header."""

    def _get_header_value(self, name: str) -> str | None:
        key = "HTTP_" + name.upper().replace("-", "_")
        value = self.request.META.get(key) or None
        if value and self.request.META.get(key + "_URI_AUTOENCODED") == "true":
            value = unquote(value)
        return value


class HtmxMiddleware(django_htmx.middleware.HtmxMiddleware):
    """django-htmx's middleware with HtmxDetails above (the app is served synchronously)."""

    async_capable = False

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.htmx = HtmxDetails(request)
        return self.get_response(request)


class TurkishFirstLocaleMiddleware(LocaleMiddleware):
    """Turkish unless this phone chose another language with the switch (the language cookie).

    The phone's own language (Accept-Language) is not asked: the players are at a Turkish
    table and many keep their phones in English; the switch is one tap away.
    """

    def process_request(self, request) -> None:
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        language = chosen if chosen in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()


# What parsing a body that is not what our forms send can raise (Django raises BadRequest for
# a urlencoded body that declares a charset other than UTF-8, SuspiciousOperation subclasses for
# too many fields or too much data, MultiPartParserError for a broken multipart body).
UNREADABLE_BODY = (
    BadRequest,
    SuspiciousOperation,
    MultiPartParserError,
    UnreadablePostError,
    UnicodeError,
    ValueError,
)


class RequestBodyGuardMiddleware:
    """Read a POST body once, before anything else does, and refuse it with our own page if it
    cannot be read as a form, is larger than our largest form needs, or carries a file (no form
    here takes one).

    Without this, the CSRF check is the first to read the body; Django's 400 handler then runs
    the CSRF check again, which fails the same way: a 500 without our headers and a long
    traceback in the log for every such request. Last in MIDDLEWARE, so that every other
    middleware's headers are on the refusal too; it runs before any process_view (the CSRF check).
    """

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        declared = request.META.get("CONTENT_LENGTH") or "0"
        if declared.isdigit() and int(declared) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
            # Refused unread, files and all (Django's own cap leaves files out).
            return refusal(request, 413, f"body of {declared} bytes", **too_large())
        if request.method == "POST":
            try:
                read_form_body(request)
                request.POST  # noqa: B018 -- parses the body (cached on the request)
            except RequestDataTooBig as error:
                return refusal(request, 413, str(error), **too_large())
            except UNREADABLE_BODY as error:
                return refusal(request, 400, str(error) or error.__class__.__name__)
            if request.FILES:
                return refusal(
                    request,
                    400,
                    "a file was sent",
                    message=_("Bu sitenin hiçbir formu dosya almaz."),
                )
        return self.get_response(request)


URLENCODED = "application/x-www-form-urlencoded"


def read_form_body(request: HttpRequest) -> None:
    """Parse a urlencoded POST body into request.POST as Django does (`QueryDict(body,
    encoding="utf-8")`, with the same size and field-count limits), but in one pass: QueryDict
    adds each field through four layers of checks, 70 µs for the hand form's 30 fields, the
    twentieth of a save (bench/profile.py). Anything else (multipart, a charset other than
    UTF-8, a body already read) is left to Django. tests/web/test_request_size.py compares the
    two on every kind of body."""
    if (
        request.content_type != URLENCODED
        or (request.encoding or "utf-8").lower() != "utf-8"
        or hasattr(request, "_post")
        or (request._read_started and not hasattr(request, "_body"))
    ):
        return
    body = request.body  # Django's reading: its size limit, UnreadablePostError
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:  # as QueryDict does: some user agents misbehave
        text = body.decode("iso-8859-1")
    fields: dict[str, list[str]] = {}
    try:
        pairs = parse_qsl(
            text,
            keep_blank_values=True,
            encoding="utf-8",
            max_num_fields=settings.DATA_UPLOAD_MAX_NUMBER_FIELDS,
        )
    except ValueError as error:  # QueryDict's reading of it, and its message
        raise TooManyFieldsSent(
            "The number of GET/POST parameters exceeded settings.DATA_UPLOAD_MAX_NUMBER_FIELDS."
        ) from error
    for key, value in pairs:
        fields.setdefault(key, []).append(value)
    post = QueryDict(mutable=True, encoding="utf-8")
    dict.update(post, fields)  # a MultiValueDict is a dict of lists
    post._mutable = False
    request._post, request._files = post, MultiValueDict()


def too_large() -> dict:
    return {
        "title": _("İstek çok büyük"),
        "message": _("Gönderilen bilgiler bu sitenin formlarının alabileceğinden büyük."),
    }


FORWARDED_HEADERS = ("HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_HOST")


@lru_cache(maxsize=8)
def _networks(proxies: tuple[str, ...]) -> tuple:
    return tuple(ipaddress.ip_network(proxy, strict=False) for proxy in proxies)


def is_trusted_proxy(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in _networks(tuple(settings.TRUSTED_PROXIES)))


class TrustedProxyMiddleware:
    """Believe X-Forwarded-For and X-Forwarded-Proto only from our own proxy.

    Anyone can write these headers. Unless the peer (REMOTE_ADDR) is one of TRUSTED_PROXIES, they
    are dropped before anything reads them (Django's is_secure() reads X-Forwarded-Proto), and the
    client is the peer. From a trusted proxy, the client is the right-most address in
    X-Forwarded-For that is not itself a trusted proxy: what our proxy saw, never what the
    client wrote to the left of it. Sets `request.client_address`.
    """

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.client_address = self.client_address(request.META)
        return self.get_response(request)

    @staticmethod
    def client_address(meta: dict) -> str:
        peer = meta.get("REMOTE_ADDR", "") or "unknown"
        if not is_trusted_proxy(peer):
            for header in FORWARDED_HEADERS:
                meta.pop(header, None)
            return peer
        hops = [hop.strip() for hop in meta.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        for hop in reversed([hop for hop in hops if hop]):
            if not is_trusted_proxy(hop):
                return hop[:64]  # a proxy passes on whatever it received left of its own entry
        return peer


# --- Privacy headers wherever a key is in the URL -------------------------------------------

# First path segments whose URLs are keys (a malformed key under them too), and what a key looks
# like anywhere else in a path or a query (`/kurallar/yeni/?from=<key>`, `?preset=house:<key>`).
KEYED_SECTIONS = {"m", "v", "ev", "masa"}
KEY = re.compile(r"(?:house:)?[A-Za-z0-9_-]{22,64}")


def url_holds_key(request: HttpRequest) -> bool:
    segments = request.path.strip("/").split("/")
    if segments[0] in KEYED_SECTIONS:
        return True
    values = [value for _name, values in request.GET.lists() for value in values]
    # A built-in preset's slug is no key, however long.
    return any(KEY.fullmatch(part) and part not in scoring.PRESETS for part in [*segments, *values])


class KeyedUrlHeadersMiddleware:
    """Every response whose URL holds a key stays out of search engines and, unless the view
    chose otherwise (a view page: `private, no-cache`), out of every cache: pages, fragments,
    404s, 410s, 429s and refusals alike, whichever code answered."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if url_holds_key(request):
            response["X-Robots-Tag"] = "noindex, nofollow"
            if not response.has_header("Cache-Control"):
                add_never_cache_headers(response)
        return response


class DatabaseRefusedMiddleware:
    """A database that refuses a write outside the views that re-show their form (which answer
    it themselves: a hand, a renaming, a new match, an undo) is answered with our page and 503
    (cetele.refusals.write_refused), not a 500."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        # OperationalError: locked past the timeout, a full disk, the server gone. Anything else
        # from the database (an IntegrityError, a ProgrammingError) is a fault of ours: a 500.
        if isinstance(exception, OperationalError):
            return write_refused(request, exception)
        return None
