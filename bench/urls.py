"""The app's URLs plus two baselines: the same middleware and server, nothing else.

/bench/minimal/        the smallest Django view: what every server time is divided by;
/bench/minimal-write/  the same plus one row committed in its own transaction: the floor a save
                       cannot go under on this disk (SQLite's WAL is fsync'ed at each commit).
/bench/kept/           which process answered, and whether it keeps a drawn sheet (the view
                       link's, in Turkish): ?view=<token> names the match and gives the sheet's
                       key, ?key=<key> asks after a deletion
                       (tests/web/your_data/test_deleted_sheets_forgotten_everywhere.py).
"""

import os

from django.core.cache import caches
from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import include, path
from django.utils.translation import override
from django.views.decorators.csrf import csrf_exempt

from cetele.live.kept import SHEETS
from cetele.matches.sheet import board_key
from cetele.models import Match
from cetele.sharing.links import VIEW, link_context
from cetele.urls import handler400, handler500  # noqa: F401 -- read from the root URLconf


def minimal(request: HttpRequest) -> HttpResponse:
    """The smallest Django view: the baseline that every server time is divided by."""
    return HttpResponse("ok")


@csrf_exempt  # bench only: a baseline for the disk, beside a real form's POST
def minimal_write(request: HttpRequest) -> HttpResponse:
    """One row written and committed, as a save commits: the fsync floor of this machine."""
    if not _table_made:
        with connection.cursor() as cursor:
            cursor.execute("CREATE TABLE IF NOT EXISTS bench_write (n INTEGER)")
        _table_made.append(True)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("INSERT INTO bench_write (n) VALUES (1)")
    return HttpResponse("ok")


_table_made: list = []


def kept(request: HttpRequest) -> JsonResponse:
    """This process's id, and whether it keeps the view link's sheet of the match ?view= names
    (with its key), or the sheet of ?key=."""
    key = request.GET.get("key", "")
    if "view" in request.GET:
        match = Match.objects.get(view_token=request.GET["view"])
        with override("tr"):
            key = board_key(match, link_context(match, VIEW))
    return JsonResponse(
        {"pid": os.getpid(), "key": key, "kept": caches[SHEETS].get(key) is not None}
    )


urlpatterns = [
    path("bench/minimal/", minimal),
    path("bench/minimal-write/", minimal_write),
    path("bench/kept/", kept),
    path("", include("cetele.urls")),
]
