"""Middleware of our own."""

from django.conf import settings
from django.middleware.csrf import CsrfViewMiddleware
from django.middleware.locale import LocaleMiddleware
from django.utils import translation


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
