"""The operator's admin site (see cetele.admin): Django's, with the counts on its front page
and wrong passwords slowed down per address (cetele.shell.wrong_passwords).

Kept apart from cetele.admin, which registers the models: Django builds the default site while
it imports the admin modules, and a site class defined in one of them would be built twice.
"""

from datetime import timedelta

from django.contrib import admin
from django.db.models import Count, F, Q
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from cetele.models import Hand, HousePreset, Match, Player, Table, TablePlayer
from cetele.shell.wrong_passwords import (
    ADMIN,
    bad_link_retry_after,
    record_bad_link,
    too_many_bad_links,
)

UNUSED_FOR = timedelta(days=365)  # forget_unused's default


class OperatorSite(admin.AdminSite):
    site_header = _("Çetele — işletmeci")
    site_title = _("Çetele işletmeci")
    index_title = _("Sunucudaki veriler")
    index_template = "cetele/shell/admin_index.html"

    def index(self, request: HttpRequest, extra_context: dict | None = None) -> HttpResponse:
        return super().index(request, {**(extra_context or {}), "counts": data_counts()})

    def login(self, request: HttpRequest, extra_context: dict | None = None) -> HttpResponse:
        """Django's login, with wrong passwords counted per address (429 past the limit): a
        password, unlike a link, can be guessed. Only the login is refused: match links are never
        counted, so the operator mistyping at the café locks none of its phones out."""
        retry_after = bad_link_retry_after(request, ADMIN)
        if retry_after is not None:
            return too_many_bad_links(retry_after)
        response = super().login(request, extra_context)
        if request.method == "POST" and not request.user.is_authenticated:
            retry_after = record_bad_link(request, ADMIN)
            if retry_after is not None:  # racing past the limit: this one is one too many
                return too_many_bad_links(retry_after)
        return response


def data_counts() -> list[tuple[str, int]]:
    """What the server holds, for the admin's front page."""
    stale = timezone.now() - UNUSED_FOR
    matches = Match.objects.annotate(played=Count("hands")).aggregate(
        total=Count("pk"),
        finished=Count("pk", filter=Q(played__gte=F("planned_hands"))),
        stale=Count("pk", filter=Q(touched_at__lt=stale)),
    )
    return [
        (_("Maçlar"), matches["total"]),
        (_("Biten maçlar"), matches["finished"]),
        (_("Süren maçlar"), matches["total"] - matches["finished"]),
        (_("Eller"), Hand.objects.count()),
        (_("Oyuncu adları"), Player.objects.count() + TablePlayer.objects.count()),
        (_("Masalar"), Table.objects.count()),
        (_("Ev kuralları"), HousePreset.objects.count()),
        (_("Bir yıldır kullanılmayan maçlar"), matches["stale"]),
        (_("Bir yıldır kullanılmayan masalar"), Table.objects.filter(touched_at__lt=stale).count()),
        (
            _("Bir yıldır kullanılmayan ev kuralları"),
            HousePreset.objects.filter(touched_at__lt=stale).count(),
        ),
    ]
