"""Tables (masa) and rematches: setting up a table, its page (edit and view links), starting a
match at it, its players and links; "Rövanş" on a finished match.

Every view reached through a link wears `secret_link` (cetele.sharing.links), exactly like a
match's: the same 404 for every bad link, noindex, no caching. The view link's page is GET-only
and never carries an edit token (the table's or a match's).
"""

from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from cetele.live.push import stream_url
from cetele.live.schedule import live_context
from cetele.matches.forms import RotateLinkForm
from cetele.models import Match
from cetele.sharing.links import (
    EDIT,
    VIEW,
    BadLink,
    hand_over,
    house_keys_guarded,
    secret_link,
)
from cetele.sharing.pages import rotation_refused
from cetele.tables import live
from cetele.tables.forms import TableForm, TableMatchForm, TableNameForm, TablePlayersForm
from cetele.tables.models import Table
from cetele.tables.season import (
    ALL_SEASONS,
    TABLE_TOKEN_FIELDS,
    NotFinished,
    PlayersRefused,
    choose_season,
    create_table,
    load_table,
    rematch,
    save_players,
    seasons,
    standings_message,
    table_by_token,
    table_from_match,
)
from cetele.tea.card import table_card

TABLE_URLS = {
    EDIT: {
        "page": "tables:table_detail",
        "match": "matches:match_detail",
        "poll": "tables:table_poll",
    },
    VIEW: {
        "page": "tables:view_table",
        "match": "sharing:view_match",
        "poll": "tables:view_table_poll",
    },
}


def table_url(table) -> str:
    return reverse("tables:table_detail", args=[table.edit_token])


# --- Setting up a table ----------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
def table_create(request: HttpRequest) -> HttpResponse:
    """A new table: its name and its players."""
    form = TableForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        table = create_table(form.cleaned_data["name"].strip(), form.names())
        return hand_over(request, redirect(table_url(table)), table.edit_token)
    return TemplateResponse(request, "cetele/tables/table_create.html", {"form": form})


@require_http_methods(["GET", "HEAD", "POST"])
@secret_link(role=EDIT)
def match_table(request: HttpRequest, match: Match) -> HttpResponse:
    """The match's table; a match at no table can set one up with its players."""
    if match.table_id is not None:  # the match's edit link opens its table's too
        return hand_over(request, redirect(table_url(match.table)), match.table.edit_token)
    players = list(match.players.all())
    default = ", ".join(player.name for player in players)[:60]
    form = TableNameForm(request.POST or None, initial={"name": default})
    if request.method == "POST" and form.is_valid():
        table = table_from_match(match, form.cleaned_data["name"].strip())
        messages.success(request, _("Masa kuruldu. Bu maç ve rövanşları masada kalır."))
        return hand_over(request, redirect(table_url(table)), table.edit_token)
    context = {"match": match, "players": players, "form": form}
    return TemplateResponse(request, "cetele/tables/table_from_match.html", context)


# --- The table's page ------------------------------------------------------------------------


def table_context(request: HttpRequest, table, role: str, version=None) -> dict:
    """The page's context; `version`: the live part's (cetele.tables.live), read if not given."""
    years = seasons(table)
    season = choose_season(request.GET.get("sezon"), years)
    record = load_table(table, season, viewer=role == VIEW)
    view_url = request.build_absolute_uri(reverse("tables:view_table", args=[table.view_token]))
    token = table.edit_token if role == EDIT else table.view_token
    version = version or live.live_version(Table.objects.filter(pk=table.pk))
    return {
        "table": table,
        "record": record,
        "stats": record.stats,
        "role": role,
        "urls": TABLE_URLS[role],
        "token": token,
        # The live part asks with its version, for the season it shows, and has its stream.
        "live_version": version.key,
        "live_query": urlencode({"v": version.key, "sezon": request.GET.get("sezon", "")}),
        "stream": stream_url(token),
        **live_context(version.touched_at),
        "table_key": table.phone_key,  # how this phone's "Maçlarım" knows it
        "view_url": view_url,
        "message": standings_message(record, view_url),
        "seasons": years if len(years) > 1 else [],
        "all_seasons": ALL_SEASONS,
        **table_card(table, record, role, years),  # its latest match's tea tally (cetele.tea)
    }


@require_safe
@secret_link(role=EDIT, finds=None)
def table_detail(request: HttpRequest, token: str) -> TemplateResponse:
    """The table: its matches, standings and statistics; new match, players, links."""
    table = table_by_token(EDIT, token)
    context = table_context(request, table, EDIT)
    context["edit_url"] = request.build_absolute_uri(table_url(table))
    context["rotate_form"] = RotateLinkForm()
    return TemplateResponse(request, "cetele/tables/table.html", context)


@require_safe
@secret_link(role=VIEW, finds=None)
def view_table(request: HttpRequest, token: str) -> TemplateResponse:
    """The table read-only: matches (through their view links), standings, statistics."""
    table = table_by_token(VIEW, token)
    return TemplateResponse(
        request, "cetele/tables/table.html", table_context(request, table, VIEW)
    )


def poll(request: HttpRequest, role: str, token: str) -> HttpResponse:
    """204 while the table and its matches are at the version the page shows (one aggregate
    query), else its live part at the new version, with the tea card out of band (its forms)."""
    version = live.live_version(Table.objects.filter(**{TABLE_TOKEN_FIELDS[role]: token}))
    if version is None:
        raise BadLink()
    if request.GET.get("v") == version.key:
        return HttpResponse(status=204)
    table = table_by_token(role, token)
    context = table_context(request, table, role, version) | {"tea_oob": True}
    return TemplateResponse(request, "cetele/tables/_live_answer.html", context)


@require_safe
@secret_link(role=EDIT, finds=None)
def table_poll(request: HttpRequest, token: str) -> HttpResponse:
    return poll(request, EDIT, token)


@require_safe
@secret_link(role=VIEW, finds=None)
def view_table_poll(request: HttpRequest, token: str) -> HttpResponse:
    return poll(request, VIEW, token)


# --- Changing a table ------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
@secret_link(role=EDIT, finds=None)
@house_keys_guarded(form=("preset",))  # preset=house:<key> is a key like /ev/<key>/
def table_match(request: HttpRequest, token: str) -> HttpResponse:
    """Start a match at the table: its players by seat, the rules as for any match."""
    table = table_by_token(EDIT, token)
    players = list(table.players.all())
    last = table.matches.order_by("-created_at", "-pk").first()
    if request.method == "POST":
        form = TableMatchForm(request.POST, table=table, players=players)
    else:
        places = list(last.players.values_list("table_place", flat=True)) if last else None
        initial = TableMatchForm.initial_for_table(players, places, last)
        form = TableMatchForm(initial=initial, table=table, players=players)
    if request.method == "POST" and form.is_valid():
        match = form.start(table=table, places=form.places())
        return hand_over(
            request, redirect("matches:match_detail", match.edit_token), match.edit_token
        )
    # The places are suggested moved round by one from the table's last match, when it has one.
    context = {"table": table, "form": form, "seats_moved": last is not None}
    return TemplateResponse(request, "cetele/tables/table_match.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
@secret_link(role=EDIT, finds=None)
def table_players(request: HttpRequest, token: str) -> HttpResponse:
    """Rename the table's players (every match shows them by place) and add newcomers."""
    table = table_by_token(EDIT, token)
    players = list(table.players.all())
    form = TablePlayersForm(request.POST or None, players=players)
    if request.method == "POST" and form.is_valid():
        try:
            save_players(table, form.renamed(), form.new_names())
        except PlayersRefused as refused:
            form.add_error(None, str(refused))
        else:
            messages.success(request, _("Masanın oyuncuları kaydedildi."))
            return redirect(table_url(table))
    context = {"table": table, "form": form}
    return TemplateResponse(request, "cetele/tables/table_players.html", context)


@require_POST
@secret_link(role=EDIT, finds=None)
def table_rotate(request: HttpRequest, token: str) -> HttpResponse:
    """Give the table's edit or view link a new token; the old one stops working at once."""
    table = table_by_token(EDIT, token)
    form = RotateLinkForm(request.POST)
    if not form.is_valid():
        label = _("Yeni izleme bağlantısı")
        return rotation_refused(request, form, request.path, table_url(table), label)
    new = table.rotate_token(form.cleaned_data["kind"])
    messages.success(request, _("Masanın yeni bağlantısı hazır; eskisi artık açılmıyor."))
    return hand_over(request, redirect(table_url(table)), new)


# --- Rematch ---------------------------------------------------------------------------------


@require_POST
@secret_link(role=EDIT)
def match_rematch(request: HttpRequest, match: Match) -> HttpResponseRedirect:
    """ "Rövanş": the same players and rules, the seats moved on by one, in one tap."""
    try:
        new = rematch(match)
    except NotFinished:
        messages.error(request, _("Rövanş, maç bitince başlar."))
        return redirect("matches:match_detail", match.edit_token)
    messages.success(request, _("Rövanş başladı: herkes bir yer kaydı."))
    return hand_over(request, redirect("matches:match_detail", new.edit_token), new.edit_token)
