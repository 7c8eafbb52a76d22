"""The tea tally's card, as each page shows it: the scorer's on a match's page, a table's on
the table's page (the latest match's while it is played, else the drinks waiting at the table).
Built here, apart from the views that answer its taps, because the match's poll and the
table's page draw it too."""

from dataclasses import dataclass

from django.urls import reverse

from cetele.models import Match, Table
from cetele.sharing.links import EDIT
from cetele.tea.forms import TeaRuleForm
from cetele.tea.tally import build, drink_counts, items_and_rule, table_items, waiting_counts


@dataclass(frozen=True)
class Seat:
    """A player as the tally names them: their seat and name (a table's page knows its latest
    match's players by place, without reading the match's Player rows)."""

    seat: int
    name: str


def card_context(
    match: Match, players: list, finished: bool, *, url: str, table: Table | None = None
) -> dict:
    """What the scorer's card needs: the tally's counts (three queries at most, none per
    drink), where its taps go, and the rule's form (on the match's page)."""
    if table is not None:  # the table's page: its items and rule, already read
        items, rule = table_items(table.pk), table.tea_rule
    else:
        items, rule = items_and_rule(match)
    tally = build(items, rule, drink_counts(match.pk), players, match.teams, None, finished)
    return {
        "tea": tally,
        "tea_match": match,
        # The match and its version the counts were read at (or after): tea.js keeps a card
        # drawn later than one that comes late with an older sheet (a poll asked before a tap).
        "tea_version": f"{match.pk}:{match.version}",
        "tea_url": url,
        "tea_key": match.phone_key,  # where a tap kept without signal waits (tea.js)
        "tea_at_table": table is not None,
        "tea_rule_form": TeaRuleForm(initial={"rule": rule}) if table is None else None,
    }


def match_card(match: Match, finished: bool) -> dict:
    """The card on the scorer's page of a match."""
    url = reverse("tea:match_drink", args=[match.edit_token])
    return card_context(match, list(match.players.all()), finished, url=url)


def table_card(table: Table, record, role: str, years: list[int]) -> dict:
    """The card on a table's page: its latest match's while it is played (taps on the edit
    link, counts alone on the view link); before the table's first match and once the latest
    is over, the drinks at the table, waiting for the next match (`waiting_card`). None on a
    past season's page (`years`: the table's seasons, latest first)."""
    if record.season is not None and years and record.season != years[0]:
        return {}
    players = [Seat(player.place, player.name) for player in record.players]
    if not record.matches or record.matches[0].played.finished:
        return waiting_card(table, players, role)
    latest = record.matches[0]
    names = record.names
    players = [Seat(seat, names.get(place, "?")) for seat, place in enumerate(latest.played.places)]
    return latest_card(table, latest.match, players, latest.played.finished, role)


def table_card_now(table: Table) -> dict:
    """The table's card as its edit page shows it now (the answer to a tap on the table's
    page: a match may have started, or ended, since the page was drawn)."""
    latest = table.matches.order_by("-created_at", "-pk").first()
    if latest is not None and not latest.is_over():
        return latest_card(table, latest, list(latest.players.all()), False, EDIT)
    players = [Seat(place, name) for place, name in table.players.values_list("place", "name")]
    return waiting_card(table, players, EDIT)


def latest_card(table: Table, match: Match, players: list, finished: bool, role: str) -> dict:
    url = reverse("tea:table_drink", args=[table.edit_token]) if role == EDIT else ""
    context = card_context(match, players, finished, url=url, table=table)
    context["tea_readonly"] = role != EDIT
    if role == EDIT:
        context["tea_items_url"] = reverse("tea:table_tea", args=[table.edit_token])
        # Drinks kept at the table without signal are sent from here too (into this match).
        context["tea_table_key"] = table.phone_key
        context["tea_table_url"] = reverse("tea:table_waiting_drink", args=[table.edit_token])
    return context


def waiting_card(table: Table, players: list, role: str) -> dict:
    """The drinks at the table, by the table's players (`players`: Seat by place), waiting for
    the next match each plays (cetele.tea.models.Drink): two queries (items, counts)."""
    counts = waiting_counts(table.pk)
    tally = build(table_items(table.pk), table.tea_rule, counts, players, False, None, False)
    edit = role == EDIT
    return {
        "tea": tally,
        "tea_waiting": True,
        "tea_key": table.phone_key,
        "tea_url": reverse("tea:table_waiting_drink", args=[table.edit_token]) if edit else "",
        "tea_readonly": not edit,
        "tea_items_url": reverse("tea:table_tea", args=[table.edit_token]) if edit else "",
    }
