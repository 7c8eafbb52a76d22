"""Requests we refuse before any view runs (400, 413) or for a link that is gone (410): one page
of our own, one log line each; and our page for our own failure (500).

The page extends base.html and is rendered inside our middleware stack, so it carries our
headers (CSP, Referrer-Policy, X-Frame-Options, and X-Robots-Tag where the URL holds a key).
Nothing here reads the request body: a refusal must not fail the way the request did.
"""

import logging
import re

from django.core.exceptions import SuspiciousOperation
from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _

from cetele.shell.logs import REFUSAL_LOGGED

logger = logging.getLogger("cetele.refused")

# Link tokens are keys: the log names the route, never the key.
TOKEN_IN_PATH = re.compile(r"[A-Za-z0-9_-]{22,}")


def loggable_path(request: HttpRequest) -> str:
    return TOKEN_IN_PATH.sub("…", request.path)[:200]


def refusal(
    request: HttpRequest,
    status: int,
    reason: str,
    *,
    title: str = "",
    message: str = "",
    log: bool = True,
) -> HttpResponse:
    """Our page for a refused request, logged as one line (no traceback, no body, no key)."""
    if log:
        path = loggable_path(request)
        logger.warning("%s %s refused with %s: %s", request.method, path, status, reason[:200])
    context = {
        # The page never repeats the URL (it may hold a key): the language switch leads home.
        "language_next": "/",
        "title": title or _("İstek anlaşılamadı"),
        "message": message
        or _("Gönderilen bilgiler okunamadı. Sayfayı yenileyip yeniden deneyin."),
    }
    response = render(request, "cetele/shell/refused.html", context, status=status)
    # Django would add a line of its own ("Bad Request: /path"): logs.RefusalLoggedOnce drops it.
    setattr(request, REFUSAL_LOGGED, True)
    return response


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler400: Django's own re-runs the CSRF check, which reads the body or the host again and
    fails a second time (a 500 without our page). Ours reads neither."""
    reason = exception.__class__.__name__ if exception is not None else "bad request"
    # Django has already logged a SuspiciousOperation (e.g. a foreign Host) on django.security.
    return refusal(request, 400, reason, log=not isinstance(exception, SuspiciousOperation))


def write_refused(request: HttpRequest, exception: Exception) -> HttpResponse | None:
    """A write the database would not take (locked past its timeout, a full disk) in a view
    that has no form of its own to re-show (a deletion, a link's rotation): our page saying so,
    503, nothing changed (the view's transaction rolled back). Tapping the button again later
    is safe: each of these writes either happens whole or not at all. Anything else is left to
    Django (None)."""
    logger.error(
        "%s %s not saved, the database refused the write: %s",
        request.method,
        loggable_path(request),
        exception,
    )
    context = {
        "language_next": "/",
        "title": _("Kaydedilemedi"),
        "message": _(
            "Değişiklik kaydedilemedi: sunucu şu an veritabanına yazamıyor. Hiçbir şey "
            "değişmedi; biraz sonra geri dönüp yeniden deneyin."
        ),
    }
    return render(request, "cetele/shell/refused.html", context, status=503)


# Written out in Python, the one page that may not come from a template: it is what is sent when
# even the template cannot be drawn (a missing static file's manifest entry, say), a page of ours
# all the same, in the source language.
LAST_RESORT = (
    '<!doctype html><html lang="tr"><head><meta charset="utf-8"><title>Çetele</title></head>'
    "<body><h1>Bir sorun çıktı</h1><p>Sunucuda beklenmedik bir hata oldu. Sayfayı birkaç saniye "
    "sonra yenileyin.</p></body></html>"
)


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: our page (templates/500.html), drawn without the request, whose reading may be
    what failed, and so without its path (which may hold a key), CSRF token or language form;
    kept out of every cache and search engine, whatever the URL. Django has logged the
    traceback."""
    try:
        page = render_to_string("500.html")
    except Exception:  # noqa: BLE001 -- the page of a failure must not fail
        page = LAST_RESORT
    response = HttpResponseServerError(page)
    add_never_cache_headers(response)
    response["X-Robots-Tag"] = "noindex, nofollow"  # whichever middleware did not get to it
    return response
