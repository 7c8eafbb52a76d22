"""The tea tally of a match: its items, each player's drinks, and the bill by the table's rule.

Decisions where the issue left a choice:

- The items are the table's (TeaItem). A match at no table, and a table whose scorer never
  changed its list, use DEFAULT_ITEMS (çay, kahve, su, no price): nothing is written until
  someone changes something, and a match moved to a new table keeps its drinks' items (the
  same places). A standalone match's prices come by putting it at a table ("Masa").
- One tap is one drink; "−" beside a count takes back that player's last drink of that item
  (what a table corrects is "that çay was Ayşe's, not Ali's": one cell, never someone
  else's drink). Each form carries the count it showed (`seen`): a second tap of a double tap,
  or a tap on a page another phone has changed since, changes nothing and says so.
- "Kaybeden öder": the side with the highest total pays everything (lowest total wins in
  101): the last player in tek, the losing team in eşli. Sides tied for last share the bill in
  equal parts (a kuruş left over goes to the first in seat order), so a drawn eşli match is
  paid by all four. Until the last hand the payers are not known: the tally shows counts.
- "Herkes kendi": everyone pays their own drinks.
- Prices are whole kuruş (cetele.tea.models): a drink of an item without a price is counted
  and named on the bill but costs nothing there.
- Drinks ordered at a table before its first match, or between two matches, wait at the table
  for the player's place and go into the next match that player plays, at their seat there
  (cetele.tea.models.serve_waiting, from Match.start): that match's bill counts them. A "+" at
  the table while a match is played goes into it when the player plays it.
- A tap kept on a phone without signal (static/cetele/tea.js) is sent with its one-time id:
  a kept "+" counts whatever the count now (adding is never a lost update), a kept "−" still
  names the count it saw; the id makes a resend whose answer was lost count nothing.
"""

import hashlib
import json
from dataclasses import dataclass
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.db.models import Count, F
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy

from cetele.live import push
from cetele.models import Match, SheetError, Table
from cetele.tables.live import changed as table_changed
from cetele.tea.models import RULE_WORDS, Drink, TeaItem, TeaRule
from scoring.sheet import TEAM_SEATS

DEFAULT_ITEMS = (gettext_lazy("çay"), gettext_lazy("kahve"), gettext_lazy("su"))
# The default items counted, in the page's language ("2 teas"); an item a table named itself is
# counted as it was written ("2 çay").
DEFAULT_COUNTS = (
    ngettext_lazy("%(count)s çay", "%(count)s çay", "count"),
    ngettext_lazy("%(count)s kahve", "%(count)s kahve", "count"),
    ngettext_lazy("%(count)s su", "%(count)s su", "count"),
)
MAX_ITEMS = 8  # a table's list, retired items included
MAX_PRICE = 100_000_00  # kuruş: far past any drink, a typo beyond it is refused


@dataclass(frozen=True)
class Item:
    place: int
    name: str
    price: int | None  # kuruş
    retired: bool = False
    counted: object = None  # a default item's count words (DEFAULT_COUNTS)


def default_items() -> list[Item]:
    return [
        Item(place, str(name), None, counted=counted)
        for place, (name, counted) in enumerate(zip(DEFAULT_ITEMS, DEFAULT_COUNTS, strict=True))
    ]


def table_items(table_id: int) -> list[Item]:
    """The table's list as its scorer wrote it, or the defaults while it never did."""
    rows = TeaItem.objects.filter(table_id=table_id).values_list(
        "place", "name", "price", "retired"
    )
    return [Item(*row) for row in rows] or default_items()


def list_mark(items: list[Item]) -> str:
    """A short mark of a table's list as a page shows it: the list's form carries it back, so a
    save from a page drawn before another phone saved the list is told so, not written over
    that phone's list (cetele.tea.forms.TeaItemsForm.stale)."""
    if items == default_items():
        return "default"  # never written: the same whichever language drew it
    text = json.dumps([[i.place, i.name, i.price, i.retired] for i in items], ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def items_and_rule(match: Match) -> tuple[list[Item], str]:
    """The items (retired ones too) and the rule of a match's tally: its table's, or its own."""
    if match.table_id is None:
        return default_items(), match.tea_rule
    rule = Table.objects.filter(pk=match.table_id).values_list("tea_rule", flat=True).first()
    return table_items(match.table_id), rule or TeaRule.LOSER


def drink_counts(match_id: int) -> dict[tuple[int, int], int]:
    """How many drinks each (seat, item) has: one query however many drinks there are."""
    rows = (
        Drink.objects.filter(match_id=match_id)
        .values_list("seat", "item")
        .annotate(count=Count("pk"))
        .order_by()
    )
    return {(seat, item): count for seat, item, count in rows}


def lira(kurus: int) -> str:
    """12,50 ₺ in Turkish, 12.50 ₺ in English (the page's locale), the sign never on a line of
    its own (a no-break space)."""
    return f"{number_format(Decimal(kurus) / 100, decimal_pos=2, use_l10n=True)}\u00a0₺"


def split(total: int, parts: int) -> list[int]:
    """`total` kuruş in `parts` equal shares, the kuruş left over to the first ones."""
    share, left = divmod(total, parts)
    return [share + (1 if index < left else 0) for index in range(parts)]


@dataclass(frozen=True)
class Cell:
    item: Item
    count: int

    @property
    def words(self) -> str:
        if self.item.counted is not None:
            return self.item.counted % {"count": self.count}
        return f"{self.count} {self.item.name}"


@dataclass(frozen=True)
class Line:
    """One player's part of the tally."""

    seat: int
    name: str
    cells: list[Cell]  # one per item on the list (taps), then retired items with drinks
    cost: int  # kuruş of their own drinks (priced items only)
    owes: int | None  # kuruş to pay by the rule; None while not known (or nothing is priced)
    pays: bool  # whether the rule has this player pay (loser known, or everyone their own)

    @property
    def drinks(self) -> list[Cell]:
        return [cell for cell in self.cells if cell.count]


@dataclass(frozen=True)
class Tally:
    items: list[Item]  # the list's items (the buttons), retired ones left out
    lines: list[Line]
    totals: list[Cell]  # every item drunk, with its count
    total_cost: int
    priced: bool  # whether any drink has a price: money is shown only then
    rule: str
    payers: list[str]  # the names of who pays, empty while not known
    settled: bool  # whether the bill is final: the match is over

    @property
    def any(self) -> bool:
        return bool(self.totals)

    @property
    def rule_label(self) -> str:
        return RULE_WORDS[TeaRule(self.rule)]

    @property
    def total_words(self) -> str:
        return ", ".join(cell.words for cell in self.totals)

    @property
    def payers_words(self) -> str:
        """ "Ali, Deniz ve Ömer": a list, never "Ali & Deniz & Ömer" (players tied for last)."""
        return get_text_list(self.payers, _("ve"))


def losing_seats(teams: bool, sheet) -> list[int]:
    """The seats that pay under "kaybeden öder": the side(s) with the highest total."""
    if teams:
        worst = max(sheet.team_totals)
        sides = [side for side, total in enumerate(sheet.team_totals) if total == worst]
        return sorted(seat for side in sides for seat in TEAM_SEATS[side])
    worst = max(sheet.totals)
    return [seat for seat, total in enumerate(sheet.totals) if total == worst]


def tally_of(match: Match, players: list, sheet, finished: bool) -> Tally:
    """The tally as every page shows it: three queries at most (the table's rule, its items,
    the counts), none per drink."""
    items, rule = items_and_rule(match)
    counts = drink_counts(match.pk)
    return build(items, rule, counts, players, match.teams, sheet, finished)


def build(items, rule, counts, players, teams, sheet, finished) -> Tally:
    """The tally from what was read: no query here."""
    shown = [item for item in items if not item.retired]
    drunk_retired = [
        item
        for item in items
        if item.retired and any(counts.get((p.seat, item.place)) for p in players)
    ]
    listed = shown + drunk_retired
    costs, cells_of = {}, {}
    for player in players:
        cells = [Cell(item, counts.get((player.seat, item.place), 0)) for item in listed]
        cells_of[player.seat] = cells
        costs[player.seat] = sum(cell.count * (cell.item.price or 0) for cell in cells)
    totals = [
        Cell(item, total)
        for item in listed
        if (total := sum(counts.get((p.seat, item.place), 0) for p in players))
    ]
    total_cost = sum(costs.values())
    priced = any(cell.item.price for cell in totals)
    paying: list[int] = []
    owes: dict[int, int] = {}
    if rule == TeaRule.OWN:
        paying = [player.seat for player in players]
        owes = dict(costs)
    elif finished and sheet is not None and players:
        paying = losing_seats(teams, sheet)
        owes = dict(zip(paying, split(total_cost, len(paying)), strict=True))
    lines = [
        Line(
            player.seat,
            player.name,
            cells_of[player.seat],
            costs[player.seat],
            owes.get(player.seat, 0) if paying and priced else None,
            player.seat in paying,
        )
        for player in players
    ]
    names = {player.seat: player.name for player in players}
    payers = [names[seat] for seat in paying] if rule == TeaRule.LOSER else []
    return Tally(shown, lines, totals, total_cost, priced, rule, payers, finished)


def bill_text(tally: Tally, title: str) -> str:
    """The bill as a few lines for the table's group chat (as standings_message is)."""
    lines = [_("Çay defteri: %(title)s") % {"title": title}]
    for line in tally.lines:
        if not line.drinks:
            continue
        words = ", ".join(cell.words for cell in line.drinks)
        if tally.priced:
            words = f"{words} ({lira(line.cost)})"
        lines.append(f"{line.name}: {words}")
    total = _("Toplam: %(drinks)s") % {"drinks": tally.total_words}
    if tally.priced:
        total = f"{total} — {lira(tally.total_cost)}"
    lines.append(total)
    if tally.rule == TeaRule.OWN:
        lines.append(_("Herkes kendi içtiğini öder."))
    elif tally.payers:
        payers = tally.payers_words
        if tally.priced:
            share = next(line.owes for line in tally.lines if line.pays)
            if len(tally.payers) > 1:
                lines.append(
                    _("Kaybeden öder: %(payers)s (kişi başı %(share)s)")
                    % {"payers": payers, "share": lira(share)}
                )
            else:
                lines.append(_("Kaybeden öder: %(payers)s") % {"payers": payers})
        else:
            lines.append(_("Kaybeden öder: %(payers)s") % {"payers": payers})
    return "\n".join(lines)


# --- Changes ---------------------------------------------------------------------------------


class UnknownDrink(SheetError):
    """The player or the item named is not this match's (a stale page, a made-up request)."""


class TallyMoved(SheetError):
    """The count the form showed is not the count now: a double tap, or another phone's tap.
    `count` is the count now."""

    def __init__(self, count: int) -> None:
        super().__init__()
        self.count = count


class NoDrink(SheetError):
    """ "−" on a cell with no drink: nothing to take back."""


class AlreadyCounted(SheetError):
    """A tap whose one-time id was counted before (it was sent, its answer was lost, and the
    phone sent it again): nothing new is counted. `count` is the cell's count now."""

    def __init__(self, count: int) -> None:
        super().__init__()
        self.count = count


@dataclass(frozen=True)
class Tapped:
    """What became of a tap: the cell's count now, and the match it went into (None: the drink
    waits at the table)."""

    count: int
    match_id: int | None


def apply(cell, seen: int | None, *, add: bool, tap: str, create) -> int:
    """The tap on `cell` (its drinks, read after the lock): `seen` None is a kept "+" from a
    phone that had no signal, counted whatever the count now (adding loses no one's update);
    a "−" always names the count it saw. A one-time `tap` counted before counts nothing."""
    if tap and Drink.objects.filter(tap=tap).exists():
        raise AlreadyCounted(cell.count())
    count = cell.count()
    if seen is not None and count != seen:
        raise TallyMoved(count)
    if add:
        try:
            with transaction.atomic():
                create(tap)
        except IntegrityError as error:  # the same tap raced past the check above
            raise AlreadyCounted(cell.count()) from error
        return count + 1
    if count == 0:
        raise NoDrink()
    cell.filter(pk=cell.order_by("-pk").values("pk")[:1]).delete()
    return count - 1


def change_drinks(
    match: Match, seat: int, item: int, seen: int | None, *, add: bool, tap: str = ""
) -> int:
    """One drink more (`add`) or that player's last drink of that item less, if the cell still
    holds `seen` drinks (see `apply`); returns the count now. The match's row is locked
    (PostgreSQL; SQLite's IMMEDIATE transactions serialise writers) and its version bumped:
    every phone's sheet shows the tally, and redraws it. Match.DoesNotExist when the match was
    deleted meanwhile."""
    with transaction.atomic():
        locked = (
            Match.objects.select_for_update().only("id", "table_id", "tea_rule").get(pk=match.pk)
        )
        seats = locked.players.count()
        items, _rule = items_and_rule(locked)
        if not 0 <= seat < seats or item not in {i.place for i in items if not i.retired}:
            raise UnknownDrink()
        # Counted after the lock, in a statement of its own: it sees a save that held the lock.
        cell = Drink.objects.filter(match_id=match.pk, seat=seat, item=item)

        def create(tap: str) -> None:
            Drink.objects.create(match_id=match.pk, seat=seat, item=item, tap=tap)

        count = apply(cell, seen, add=add, tap=tap, create=create)
        bump(Match.objects.filter(pk=match.pk))
    return count


def waiting_counts(table_id: int) -> dict[tuple[int, int], int]:
    """How many drinks wait at the table for each (place, item): one query."""
    rows = (
        Drink.objects.filter(table_id=table_id)
        .values_list("place", "item")
        .annotate(count=Count("pk"))
        .order_by()
    )
    return {(place, item): count for place, item, count in rows}


def match_in_play(table_id: int) -> Match | None:
    """The table's latest match while it is being played (None before the first match, or once
    the latest is over): the one a drink ordered at the table goes into."""
    latest = Match.objects.filter(table_id=table_id).order_by("-created_at", "-pk").first()
    return latest if latest is not None and not latest.is_over() else None


def change_waiting(
    table: Table, place: int, item: int, seen: int | None, *, add: bool, tap: str = ""
) -> Tapped:
    """A tap on a drink at the table, for a table player by place (see `apply`). A "+" for a
    player of the match in play goes into that match at their seat (a page drawn before the
    match started, a tap kept on a phone without signal); otherwise the drink waits for the
    next match its player plays (Drink, serve_waiting). A "−" takes back a waiting drink only.
    The table's row is locked: Match.start takes the same lock to move the waiting drinks."""
    with transaction.atomic():
        Table.objects.select_for_update().filter(pk=table.pk).values_list("pk").first()
        places = set(table.players.values_list("place", flat=True))
        items = table_items(table.pk)
        if place not in places or item not in {i.place for i in items if not i.retired}:
            raise UnknownDrink()
        playing = match_in_play(table.pk) if add else None
        if playing is not None:
            players = playing.players.filter(table_place=place)
            seat = players.values_list("seat", flat=True).first()
            if seat is not None:
                count = change_drinks(playing, seat, item, None, add=True, tap=tap)
                return Tapped(count, playing.pk)
        cell = Drink.objects.filter(table_id=table.pk, place=place, item=item)

        def create(tap: str) -> None:
            Drink.objects.create(table_id=table.pk, place=place, item=item, tap=tap)

        tapped = Tapped(apply(cell, seen, add=add, tap=tap, create=create), None)
        table_changed([table.pk])  # the drinks waiting at the table show on its page
        return tapped


def bump(matches) -> None:
    """What every phone's sheet shows of these matches changed: a new version for each."""
    matches.update(version=F("version") + 1, touched_at=timezone.now())
    push.announce(matches)


def set_rule(match: Match, rule: str) -> bool:
    """The rule of a match's tally: its table's (for every match of the table) or its own.
    False when it already was that rule (nothing is written). Match.DoesNotExist when the match
    was deleted meanwhile.

    Whether the match is at a table is decided by the database, not by the match as the
    request read it: the match's own rule is written only while it is at no table, in the
    statement that writes it (a table set up from the match meanwhile, under the match's lock:
    cetele.tables.season.table_from_match, makes it write nothing once that commits), and the
    table is read after that statement. So a rule tapped while the match joins a table is the
    table's, never left on the match where its bill no longer looks. No lock on the match
    first: the table's writers lock the table, then its matches (change_waiting, save_items),
    and this takes them in that order too."""
    with transaction.atomic():
        own = Match.objects.filter(pk=match.pk, table__isnull=True).exclude(tea_rule=rule)
        if own.update(tea_rule=rule):
            bump(Match.objects.filter(pk=match.pk))
            return True
        table_id = Match.objects.filter(pk=match.pk).values_list("table_id", flat=True).get()
        if table_id is None:
            return False  # at no table, and its rule already
        return set_table_rule(table_id, rule)


def set_table_rule(table_id: int, rule: str) -> bool:
    changed = Table.objects.filter(pk=table_id).exclude(tea_rule=rule).update(tea_rule=rule)
    if changed:
        bump_table(table_id)
    return bool(changed)


def bump_table(table_id: int) -> None:
    """The table's items or rule changed: every match of it shows them (its version only: a
    match's last use stays when it was used)."""
    Match.objects.filter(table_id=table_id).update(version=F("version") + 1)
    push.announce(Match.objects.filter(table_id=table_id))
    table_changed([table_id])  # and the table's own page, with or without a match


class ListChanged(Exception):
    """The table's list changed (another phone saved it) after the form was made from it:
    nothing is written."""


def save_items(table: Table, seen: list[Item], items: list[Item], rule: str) -> None:
    """The table's list as its scorer wrote it (names, prices, retired, new ones at the next
    places) and its rule, in one transaction with the table's row locked. The list is written
    whole, so it is written only over the list its form was made from (`seen`), read again
    after the lock: another phone's save in between is ListChanged, not overwritten."""
    with transaction.atomic():
        Table.objects.select_for_update().only("id").get(pk=table.pk)
        if table_items(table.pk) != seen:
            raise ListChanged()
        TeaItem.objects.filter(table=table).delete()
        TeaItem.objects.bulk_create(
            TeaItem(
                table=table,
                place=item.place,
                name=item.name,
                price=item.price,
                retired=item.retired,
            )
            for item in items
        )
        Table.objects.filter(pk=table.pk).update(tea_rule=rule)
        bump_table(table.pk)
