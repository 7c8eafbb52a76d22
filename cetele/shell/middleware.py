"""Middleware of our own."""

import ipaddress
import re
from functools import lru_cache

from django.conf import settings
from django.core.exceptions import (
    BadRequest,
    RequestDataTooBig,
    SuspiciousOperation,
)
from django.db import OperationalError
from django.http import HttpRequest, HttpResponse, UnreadablePostError
from django.http.multipartparser import MultiPartParserError
from django.middleware.locale import LocaleMiddleware
from django.utils import translation
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _

import scoring
from cetele.shell.refusals import refusal, write_refused


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
KEYED_SECTIONS = {"m", "v", "k", "ev", "masa", "t", "tv"}
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


class FormOnlyAddressMiddleware:
    """An address that only takes a form (a hand's save, a deletion, "Geri al"), opened as a
    page: a browser without JavaScript shows such an address after sending a form there, and a
    phone may open it again later from its history or a copied link. Django's `require_POST`
    answers that with an empty 405, a blank screen; this gives our page saying what happened and
    the way back (still 405, with its Allow header). Django has logged its line (keys redacted:
    cetele.shell.logs)."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or response.content or request.method not in ("GET", "HEAD"):
            return response
        page = refusal(
            request,
            405,
            "form only",
            title=_("Bu adres bir sayfa değil"),
            message=_(
                "Bu adrese yalnızca bir form gönderilir; açılacak bir sayfası yok. Geri dönmek "
                "için tarayıcının geri tuşuna dokunun ya da sayfayı ana sayfadaki “Maçlarım” "
                "listesinden açın."
            ),
            log=False,
        )
        page["Allow"] = response["Allow"]
        return page


class DatabaseRefusedMiddleware:
    """A database that refuses a write outside the views that re-show their form (which answer
    it themselves: a hand, a renaming, a new match, an undo) is answered with our page and 503
    (cetele.shell.refusals.write_refused), not a 500."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        # OperationalError: locked past the timeout, a full disk, the server gone. Anything else
        # from the database (an IntegrityError, a ProgrammingError) is a fault of ours: a 500.
        # Only for a write: a page that fails to read is a fault, our 500 page.
        if request.method == "POST" and isinstance(exception, OperationalError):
            return write_refused(request, exception)
        return None
