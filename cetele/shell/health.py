"""/healthz: for load balancers and orchestrators (docs/self-hosting.md).

200 when the database answers a query on the app's own table (so a server whose database is
down, unreachable or not migrated is taken out of rotation), 503 otherwise. It holds no key, says
nothing about any match and writes nothing: one indexed lookup that finds no row.
"""

from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from cetele.models import Match


@never_cache
@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    try:
        Match.objects.filter(pk=0).exists()
    except DatabaseError:
        return HttpResponse("database unavailable\n", status=503, content_type="text/plain")
    return HttpResponse("ok\n", content_type="text/plain")
