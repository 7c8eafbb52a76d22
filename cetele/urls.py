from django.conf import settings
from django.urls import include, path, re_path, register_converter

from cetele.matches import views as matches
from cetele.sharing import links as sharing


class TokenConverter:
    """A link token: URL-safe base64 of at least 128 bits. Anything else never reaches a view."""

    regex = "[A-Za-z0-9_-]{22,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(TokenConverter, "token")

# Django's own re-runs the CSRF check, which can fail again on what made the request bad.
handler400 = "cetele.shell.refusals.bad_request"
# Django's own is a bare English page without our cache headers.
handler500 = "cetele.shell.refusals.server_error"

# Each concept's pages under its own namespace ("matches:match_detail"), as its own module lists
# them; the paths are the ones links already carry. The converter above is registered first: an
# include imports its module at once, and its patterns name `token`.
urlpatterns = [
    # First: the live polls are nearly all the traffic, and patterns are tried in order; each of
    # these three lists its polls first.
    path("", include("cetele.sharing.urls")),
    path("", include("cetele.seats.urls")),
    path("", include("cetele.tournaments.urls")),
    path("", include("cetele.shell.urls")),
    path("", include("cetele.matches.urls")),
    path("", include("cetele.house_rules.urls")),
    path("", include("cetele.your_data.urls")),
    path("", include("cetele.deal.urls")),
    path("", include("cetele.tea.urls")),
    path("", include("cetele.tables.urls")),
    # Anything else under a match, house-preset, table or tournament link (a malformed token):
    # the same 404, counted as a miss.
    re_path(r"^(?P<path>(?:m|v|k|ev|masa|t|tv)/.+/)$", sharing.bad_link),
    path("i18n/", include("django.conf.urls.i18n")),
    path("favicon.ico", matches.favicon),
]


def operator_urls(admin_path: str) -> list:
    """The operator's admin at `admin_path`, where DJANGO_ADMIN_PATH turned it on
    (settings.admin_settings); otherwise no URL leads to it, not even a login page."""
    if not admin_path:
        return []
    from django.contrib import admin  # installed only then

    return [path(admin_path, admin.site.urls)]


urlpatterns += operator_urls(settings.ADMIN_PATH)
