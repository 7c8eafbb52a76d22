"""The app's URLs plus a minimal view: the same middleware and server, nothing else."""

from django.http import HttpRequest, HttpResponse
from django.urls import include, path

from cetele.urls import handler400  # noqa: F401 -- error handlers are read from the root URLconf


def minimal(request: HttpRequest) -> HttpResponse:
    """The smallest Django view: the baseline that every server time is divided by."""
    return HttpResponse("ok")


urlpatterns = [
    path("bench/minimal/", minimal),
    path("", include("cetele.urls")),
]
