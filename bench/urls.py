"""The app's URLs plus two baselines: the same middleware and server, nothing else.

/bench/minimal/        the smallest Django view: what every server time is divided by;
/bench/minimal-write/  the same plus one row committed in its own transaction: the floor a save
                       cannot go under on this disk (SQLite's WAL is fsync'ed at each commit).
/bench/kept/           which process answered, and whether what it keeps
(cetele.your_data.forgetting) is
                       as the previous visit left it: tests/web/test_forgetting.py.
"""

import os

from django.core.cache import caches
from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt

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
    """This process's id; whether the canary an earlier visit left among the kept drawings is
    still there (it is left again now)."""
    planted = caches["sheets"].add("bench:canary", os.getpid(), timeout=None)
    return JsonResponse(
        {
            "pid": os.getpid(),
            "canary_kept": not planted,
        }
    )


urlpatterns = [
    path("bench/minimal/", minimal),
    path("bench/minimal-write/", minimal_write),
    path("bench/kept/", kept),
    path("", include("cetele.urls")),
]
