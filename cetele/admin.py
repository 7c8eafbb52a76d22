"""The operator's door: Django's admin, on only when DJANGO_ADMIN_PATH is set (settings); its
site, with the counts, is cetele.shell.admin_site.OperatorSite.

A self-hosting café owner can list and search matches, tables and house presets by date and
state, see the counts and delete them — nothing else: nothing can be added or changed here, so
the admin can never corrupt a score sheet. Links are keys: no page shows an edit or view token
in full (a few characters identify a link someone reads out; they open nothing), and tokens are
neither searchable nor in any form. A deletion is logged by number only, never with a name.
"""

from datetime import datetime

from django.contrib import admin
from django.contrib.admin.models import DELETION, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db.models import Count, F, Q
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from cetele.models import HOUSE_PREFIX, HousePreset, Match, Player, Table, TablePlayer

PREFIX_LENGTH = 4


def token_prefix(token: str) -> str:
    """Enough of a token to tell links apart when someone reads theirs out; it opens nothing."""
    return f"{token[:PREFIX_LENGTH]}…"


def dates(title: str) -> type:
    """Django's date filter under a title of ours (it would show the field's English name)."""

    class DateFilter(admin.DateFieldListFilter):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            self.title = title

    return DateFilter


BY_DATE = [("created_at", dates(_("başlangıç"))), ("touched_at", dates(_("son kullanım")))]


class LookAndDeleteAdmin(admin.ModelAdmin):
    """Read-only pages and deletion; links shown as prefixes; deletions logged without names."""

    list_per_page = 50
    show_full_result_count = True

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    @admin.display(description=_("Başladı"), ordering="created_at")
    def started(self, obj) -> datetime:
        return obj.created_at

    @admin.display(description=_("Son kullanım"), ordering="touched_at")
    def last_used(self, obj) -> datetime:
        return obj.touched_at

    @admin.display(description=_("Düzenleme bağlantısı"))
    def edit_link(self, obj) -> str:
        return token_prefix(obj.edit_token)

    @admin.display(description=_("İzleme bağlantısı"))
    def view_link(self, obj) -> str:
        return token_prefix(obj.view_token)

    def log_deletions(self, request: HttpRequest, queryset) -> None:
        """Who deleted what, by number only: the history keeps no player or preset name."""
        content_type = ContentType.objects.get_for_model(self.model)
        label = str(self.model._meta.verbose_name)
        LogEntry.objects.bulk_create(
            LogEntry(
                user_id=request.user.pk,
                content_type=content_type,
                object_id=str(obj.pk),
                object_repr=f"{label} #{obj.pk}",
                action_flag=DELETION,
            )
            for obj in queryset
        )


class MatchState(admin.SimpleListFilter):
    title = _("durum")
    parameter_name = "durum"

    def lookups(self, request, model_admin):
        return [("suruyor", _("Sürüyor")), ("bitti", _("Bitti"))]

    def queryset(self, request, queryset):
        finished = Q(hand_count__gte=F("planned_hands"))
        if self.value() == "bitti":
            return queryset.filter(finished)
        if self.value() == "suruyor":
            return queryset.exclude(finished)
        return queryset


class PlayerInline(admin.TabularInline):
    model = Player
    fields = ["seat", "name"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(LookAndDeleteAdmin):
    list_display = [
        "number",
        "players",
        "hands",
        "state",
        "table_name",
        "started",
        "last_used",
        "edit_link",
        "view_link",
    ]
    list_filter = [MatchState, *BY_DATE]
    date_hierarchy = "created_at"
    search_fields = ["players__name", "table__name"]
    ordering = ["-touched_at"]
    fields = [
        "started",
        "last_used",
        "kind",
        "hands",
        "preset",
        "table_name",
        "edit_link",
        "view_link",
        "ruleset",
    ]
    readonly_fields = fields
    inlines = [PlayerInline]

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .select_related("table")
            .prefetch_related("players")
            .annotate(hand_count=Count("hands"))
        )

    @admin.display(description="#", ordering="pk")
    def number(self, match: Match) -> str:
        return f"#{match.pk}"

    @admin.display(description=_("Oyuncular"))
    def players(self, match: Match) -> str:
        return ", ".join(player.name for player in match.players.all())

    @admin.display(description=_("El"), ordering="hand_count")
    def hands(self, match: Match) -> str:
        return f"{match.hand_count} / {match.planned_hands}"

    @admin.display(description=_("Durum"), boolean=False)
    def state(self, match: Match) -> str:
        return _("Bitti") if match.hand_count >= match.planned_hands else _("Sürüyor")

    @admin.display(description=_("Masa"))
    def table_name(self, match: Match) -> str:
        return match.table.name if match.table else "—"

    @admin.display(description=_("Oyun"))
    def kind(self, match: Match) -> str:
        return _("Eşli") if match.teams else _("Tekli")

    @admin.display(description=_("Kurallar"))
    def ruleset(self, match: Match) -> dict:
        return match.rules

    @admin.display(description=_("Kural"))
    def preset(self, match: Match) -> str:
        """A house preset is named by its view token: show a prefix of it only."""
        if match.preset_slug.startswith(HOUSE_PREFIX):
            return _("ev kuralı %(link)s") % {
                "link": token_prefix(match.preset_slug.removeprefix(HOUSE_PREFIX))
            }
        return match.preset_slug or "—"


@admin.register(HousePreset)
class HousePresetAdmin(LookAndDeleteAdmin):
    list_display = [
        "name",
        "matches",
        "started",
        "last_used",
        "edit_link",
        "view_link",
    ]
    list_filter = BY_DATE
    date_hierarchy = "created_at"
    search_fields = ["name", "description"]
    ordering = ["-touched_at"]
    fields = ["name", "description", "started", "last_used", "matches", "edit_link", "view_link"]
    readonly_fields = fields

    @admin.display(description=_("Onunla başlayan maç"))
    def matches(self, house: HousePreset) -> int:
        return Match.objects.filter(preset_slug=house.choice_value).count()


class TablePlayerInline(admin.TabularInline):
    model = TablePlayer
    fields = ["place", "name"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(LookAndDeleteAdmin):
    """Deleting a table here keeps its matches (they become standalone); to delete them too,
    filter the matches by this table and delete them there."""

    list_display = [
        "name",
        "players",
        "matches",
        "started",
        "last_used",
        "edit_link",
        "view_link",
    ]
    list_filter = BY_DATE
    date_hierarchy = "created_at"
    search_fields = ["name", "players__name"]
    ordering = ["-touched_at"]
    fields = ["name", "started", "last_used", "matches", "edit_link", "view_link"]
    readonly_fields = fields
    inlines = [TablePlayerInline]

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .prefetch_related("players")
            .annotate(match_count=Count("matches"))
        )

    @admin.display(description=_("Oyuncular"))
    def players(self, table: Table) -> str:
        return ", ".join(player.name for player in table.players.all())

    @admin.display(description=_("Maçlar"), ordering="match_count")
    def matches(self, table: Table) -> int:
        return table.match_count
