"""The live poll's common answer without Django's request cycle: "nothing changed" (204).

Nearly every request a live table makes is a phone asking whether the match changed, and nearly
every answer is "no". Through Django that is a request object, twelve middleware, URL resolution
and the view for one indexed lookup; here it is the lookup and the answer. Only the plainest case
is answered here; anything else goes to Django untouched, which then answers as it always does:

- a GET of a sheet's poll, /m|v|k/<token>/poll/?v=<n>, or of the open hand's rows,
  /m|k/<token>/satirlar/?v=<n>&d=<m>&p=<k> (cetele.seats.views.rows_poll), no body, a host Django
  allows (as Django's own get_host reads it), and no redirect to HTTPS pending;
- with only the cookies a phone's poll carries, and a CSRF cookie that Django's CSRF middleware,
  asked, keeps as it is (it replaces a malformed one; a message or a session cookie may bring
  other cookies too);
- from a browser whose signed `cetele_links` cookie holds this link's mark (it opened the page):
  Django's answer to any other browser adds the mark to that cookie
  (cetele.sharing.links.remember_link), which the headers kept here would not;
- and the match is found at exactly version <n> (and, for the rows, rows' version <m>): one
  indexed query.

The answer's headers are Django's own: the first such poll in each process (per role, kind of
poll, scheme and language) is answered by Django and its headers are kept, then given again
(with a fresh `Expires` where Django dated one). tests/web/live/test_polls_answered_as_django.py
compares both ways, request by request, status and headers.
"""

import re

from django.conf import settings
from django.core import signals
from django.core.handlers.wsgi import WSGIRequest
from django.db import connection
from django.http import HttpResponse
from django.middleware.csrf import CsrfViewMiddleware

from cetele.seats.claims import CLAIMS_COOKIE
from cetele.sharing.links import (
    EDIT,
    JOIN,
    SEEN_COOKIE,
    TOKEN_FIELDS,
    VIEW,
    http_date_now,
    link_mark,
    marks_in,
)
from cetele.shell.middleware import TrustedProxyMiddleware

TOKEN = r"([A-Za-z0-9_-]{22,64})"
SHEET, ROWS = "sheet", "rows"
# What each kind of poll's path and query look like, as the pages write them (match.html#sheet,
# cetele.seats.pages.rows_url): the numbers it shows, compared with the match's.
POLLS = {
    SHEET: (re.compile(rf"/(m|v|k)/{TOKEN}/poll/"), re.compile(r"v=(\d{1,10})")),
    ROWS: (
        re.compile(rf"/(m|k)/{TOKEN}/satirlar/"),
        re.compile(r"v=(\d{1,10})&d=(\d{1,10})&p=\d{1,10}"),
    ),
}
ROLES = {"m": EDIT, "v": VIEW, "k": JOIN}


# The one query written out in SQL (everywhere else, the ORM): this answer is nearly all the
# traffic, and building the query through the ORM took longer than running it. The column is
# ours, never the request's; the token is a parameter. Django's own poll view (cetele.sharing.views)
# asks the same through the ORM, and tests/web/live/test_polls_answered_as_django.py compares the
# two answers.
VERSION_QUERY = {
    field: f"SELECT id, version, draft_version FROM cetele_match WHERE {field} = %s"
    for field in TOKEN_FIELDS.values()
}


def current_version(token_field: str, token: str) -> tuple[int, int, int] | None:
    """(pk, version, rows' version) of the match this token opens, or None: one indexed lookup."""
    with connection.cursor() as cursor:
        cursor.execute(VERSION_QUERY[token_field], [token])
        return cursor.fetchone()


class PollFastPath:
    """WSGI middleware around Django's application (cetele/wsgi.py)."""

    def __init__(self, application) -> None:
        self.application = application
        self.headers: dict[tuple, list[tuple[str, str]]] = {}  # learnt from Django, per kind
        # Settings under which a middleware answers a plain poll otherwise than with its 204 (a
        # redirect to www., a refused user agent, the CSRF secret in a session): all Django's.
        self.plain_settings = not (
            settings.PREPEND_WWW or settings.DISALLOWED_USER_AGENTS or settings.CSRF_USE_SESSIONS
        )
        # The cookies a phone's poll carries. With any other (a message to show, the operator's
        # session, anything a client wrote) a middleware may answer with a cookie: Django's.
        self.plain_cookies = {
            settings.CSRF_COOKIE_NAME,
            SEEN_COOKIE,
            settings.LANGUAGE_COOKIE_NAME,
            CLAIMS_COOKIE,  # a joined phone's seat (under /k/ only); a 204 never reads it
        }

    def __call__(self, environ, start_response):
        kind = self.plain_poll(environ)
        if kind is None:
            return self.application(environ, start_response)
        role, token, shown, key = kind
        headers = self.headers.get(key)
        if headers is None:
            return self.learn(key, environ, start_response)
        signals.request_started.send(sender=self.__class__, environ=environ)
        try:
            found = current_version(TOKEN_FIELDS[role], token)
        except Exception:  # noqa: BLE001 -- the database failed: Django answers as it does then
            found = None
        finally:
            signals.request_finished.send(sender=self.__class__)
        if found is None or tuple(map(str, found[1 : 1 + len(shown)])) != shown:  # as Django does
            return self.application(environ, start_response)  # gone, or changed: Django's work
        start_response("204 No Content", fresh(headers))
        return []

    def plain_poll(self, environ) -> tuple | None:
        """(role, token, versions shown, header key) for a poll only Django's 204 could answer."""
        if environ.get("REQUEST_METHOD") != "GET" or environ.get("CONTENT_LENGTH", "") not in (
            "",
            "0",
        ):
            return None
        if environ.get("SCRIPT_NAME") or not self.plain_settings:
            return None
        found = which_poll(environ)
        if found is None:
            return None
        poll, path, shown = found
        request = django_request(environ)
        if request is None:
            return None  # a Host Django refuses (400), or a request it cannot read
        secure = request.is_secure()
        if settings.SECURE_SSL_REDIRECT and not secure:
            return None
        cookies = request.COOKIES
        if not cookies.keys() <= self.plain_cookies or not csrf_cookie_kept(request):
            return None
        token = path[2]
        if not self.opened(cookies, token):
            return None
        language = cookies.get(settings.LANGUAGE_COOKIE_NAME)
        if language not in dict(settings.LANGUAGES):
            language = settings.LANGUAGE_CODE
        role = ROLES[path[1]]
        return role, token, shown.groups(), (role, poll, secure, language)

    @staticmethod
    def opened(cookies: dict, token: str) -> bool:
        """Whether this browser's signed cookie holds the link's mark (it opened the page), read
        as cetele.sharing.links.seen_marks reads it."""
        return link_mark(token) in marks_in(cookies.get(SEEN_COOKIE, ""))

    def learn(self, key: tuple, environ, start_response):
        """Let Django answer; keep its headers if it answered 204 with nothing else to say."""

        def keep(status, headers, exc_info=None):
            names = {name.lower() for name, _ in headers}
            if status.startswith("204 ") and "set-cookie" not in names:
                self.headers[key] = list(headers)
            return start_response(status, headers, exc_info)

        return self.application(environ, keep)


def which_poll(environ) -> tuple[str, re.Match, re.Match] | None:
    """(kind of poll, its path's match, its query's match), or None for any other request."""
    for poll, (path_pattern, query_pattern) in POLLS.items():
        path = path_pattern.fullmatch(environ.get("PATH_INFO", ""))
        shown = query_pattern.fullmatch(environ.get("QUERY_STRING", ""))
        if path is not None and shown is not None:
            return poll, path, shown
    return None


def fresh(headers: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Django's headers, with `Expires` dated now where Django dated it (never-cache)."""
    return [
        (name, http_date_now() if name.lower() == "expires" else value) for name, value in headers
    ]


def django_request(environ) -> WSGIRequest | None:
    """The request as Django reads it, for what the answer depends on beyond the path: its host,
    checked by Django's own get_host (a Host header, even an empty one, before SERVER_NAME), and
    its scheme, by is_secure, after TrustedProxyMiddleware has dropped what only our proxy may
    say (on a copy: Django reads the environ afresh if it answers). None where Django would
    refuse the host (400) or could not read the request."""
    try:
        request = WSGIRequest(dict(environ))
        TrustedProxyMiddleware.client_address(request.META)
        request.get_host()
        return request
    except Exception:  # noqa: BLE001 -- DisallowedHost, or anything else: Django answers it
        return None


# Django's CSRF middleware itself, around an answer that says nothing: what it adds is what it
# would add to the poll's 204.
CSRF_ONLY = CsrfViewMiddleware(lambda request: HttpResponse(status=204))


def csrf_cookie_kept(request: WSGIRequest) -> bool:
    """Whether Django's CSRF middleware would answer this poll without a new CSRF cookie: it
    replaces a malformed one (and an older, masked one), and adds none to a 204 where there is
    none. Asked of the middleware, on this request (a copy of the environ), so that the fast
    path never has to know the cookie's format."""
    return settings.CSRF_COOKIE_NAME not in CSRF_ONLY(request).cookies
