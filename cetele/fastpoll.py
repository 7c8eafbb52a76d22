"""The live poll's common answer without Django's request cycle: "nothing changed" (204).

Nearly every request a live table makes is a phone asking whether the match changed, and nearly
every answer is "no". Through Django that is a request object, twelve middleware, URL resolution
and the view for one indexed lookup; here it is the lookup and the answer. Only the plainest case
is answered here; anything else goes to Django untouched, which then answers as it always does:

- a GET of /m/<token>/poll/?v=<n> or /v/<token>/poll/?v=<n>, no body, a host Django allows, and
  no redirect to HTTPS pending;
- from a browser whose signed `cetele_links` cookie holds this link's mark (it opened the page),
  so that the link-guessing limiter would let it through whatever its address did
  (cetele.sharing.over_the_limit): no cache is asked;
- and the match is found at exactly version <n> (one indexed query, cetele.live).

The answer's headers are Django's own: the first such poll in each process (per role, scheme and
language) is answered by Django and its headers are kept, then given again (with a fresh
`Expires` where Django dated one). tests/web/test_fast_poll.py compares both ways.
"""

import re

from django.conf import settings
from django.core import signals
from django.http import parse_cookie
from django.http.request import split_domain_port, validate_host

from cetele.live import current_version
from cetele.middleware import is_trusted_proxy
from cetele.sharing import (
    EDIT,
    SEEN_COOKIE,
    TOKEN_FIELDS,
    VIEW,
    http_date_now,
    link_mark,
    marks_in,
)

POLL = re.compile(r"/(m|v)/([A-Za-z0-9_-]{22,64})/poll/")
VERSION = re.compile(r"v=(\d{1,10})")
ROLES = {"m": EDIT, "v": VIEW}


class PollFastPath:
    """WSGI middleware around Django's application (cetele/wsgi.py)."""

    def __init__(self, application) -> None:
        self.application = application
        self.headers: dict[tuple, list[tuple[str, str]]] = {}  # learnt from Django, per kind

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
        if found is None or str(found[1]) != shown:  # compared as Django's view compares
            return self.application(environ, start_response)  # gone, or changed: Django's work
        start_response("204 No Content", fresh(headers))
        return []

    def plain_poll(self, environ) -> tuple | None:
        """(role, token, version shown, header key) for a poll only Django's 204 could answer."""
        if environ.get("REQUEST_METHOD") != "GET" or environ.get("CONTENT_LENGTH", "") not in (
            "",
            "0",
        ):
            return None
        path = POLL.fullmatch(environ.get("PATH_INFO", ""))
        shown = VERSION.fullmatch(environ.get("QUERY_STRING", ""))
        if path is None or shown is None or not self.allowed_host(environ):
            return None
        secure = self.secure(environ)
        if settings.SECURE_SSL_REDIRECT and not secure:
            return None
        cookies = parse_cookie(environ.get("HTTP_COOKIE", ""))
        if "messages" in cookies:  # Django's message storage may answer with a cookie
            return None
        token = path[2]
        if not self.opened(cookies, token):
            return None
        language = cookies.get(settings.LANGUAGE_COOKIE_NAME)
        if language not in dict(settings.LANGUAGES):
            language = settings.LANGUAGE_CODE
        role = ROLES[path[1]]
        return role, token, shown[1], (role, secure, language)

    @staticmethod
    def allowed_host(environ) -> bool:
        host = environ.get("HTTP_HOST") or environ.get("SERVER_NAME", "")
        domain, _port = split_domain_port(host)
        return bool(domain) and validate_host(domain, settings.ALLOWED_HOSTS)

    @staticmethod
    def secure(environ) -> bool:
        if environ.get("wsgi.url_scheme") == "https":
            return True
        header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
        if not header or not is_trusted_proxy(environ.get("REMOTE_ADDR", "")):
            return False  # TrustedProxyMiddleware drops X-Forwarded-Proto from anyone else
        name, value = header
        return environ.get(name, "").split(",")[0].strip() == value

    @staticmethod
    def opened(cookies: dict, token: str) -> bool:
        """Whether this browser's signed cookie holds the link's mark (it opened the page), read
        as cetele.sharing.seen_marks reads it."""
        return link_mark(token) in marks_in(cookies.get(SEEN_COOKIE, ""))

    def learn(self, key: tuple, environ, start_response):
        """Let Django answer; keep its headers if it answered 204 with nothing else to say."""

        def keep(status, headers, exc_info=None):
            names = {name.lower() for name, _ in headers}
            if status.startswith("204 ") and "set-cookie" not in names:
                self.headers[key] = list(headers)
            return start_response(status, headers, exc_info)

        return self.application(environ, keep)


def fresh(headers: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Django's headers, with `Expires` dated now where Django dated it (never-cache)."""
    return [
        (name, http_date_now() if name.lower() == "expires" else value) for name, value in headers
    ]
