"""Views: translate requests to model calls and render templates. No scoring arithmetic here."""

from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.template.response import TemplateResponse
from django.templatetags.static import static
from django.views.decorators.http import require_safe


@require_safe
def home(request: HttpRequest) -> TemplateResponse:
    """The front page: what Çetele is, and the way into a new match."""
    return TemplateResponse(request, "cetele/home.html")


@require_safe
def match_create(request: HttpRequest) -> TemplateResponse:
    """Start a new match (filled in by the match sheet)."""
    return TemplateResponse(request, "cetele/home.html")


@require_safe
def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """Browsers ask for /favicon.ico whatever the page says; send them to the hashed SVG."""
    return HttpResponsePermanentRedirect(static("cetele/favicon.svg"))
