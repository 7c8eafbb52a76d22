"""The organiser's changes: entrants, the draws (groups or the league, each knock-out round, each
tek round) with a real match for every game, and results entered by hand.

Each change runs in one transaction with the tournament's row locked and the version the
organiser's page was drawn from checked, so that a double tap or two organisers' phones end in
a sentence (Stale), never in two draws. The tournament's logic is the core's
(cetele.tournaments.engine, reached through cetele.tournaments.state).
"""

from __future__ import annotations

import secrets

from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from cetele.live import push
from cetele.models import Match
from cetele.tournaments import engine as core
from cetele.tournaments import guard, state
from cetele.tournaments.forms import repeated_entry
from cetele.tournaments.models import (
    Entrant,
    Game,
    Layout,
    ManualResult,
    Pairing,
    Stage,
    Tournament,
)

SEED_RANGE = 2**31


class Stale(Exception):
    """The organiser's page is older than the tournament: nothing was done."""


class AlreadyEntered(Exception):
    """Another result by hand was entered for the game since the organiser's form was drawn:
    nothing was done. `totals` is the result that stands."""

    def __init__(self, totals: list[int]) -> None:
        super().__init__()
        self.totals = totals


class Refused(Exception):
    """What was asked cannot be done now; the message says why (Turkish, for the page)."""

    def __init__(self, message) -> None:
        super().__init__(str(message))
        self.message = message


def locked(tournament: Tournament, version: int | None) -> Tournament:
    """The tournament's row, locked for the transaction; Stale when it moved past `version`."""
    current = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if version is not None and current.version != version:
        raise Stale()
    return current


def changed(tournament: Tournament, **fields) -> None:
    """Save `fields` and bump the version: every page drawn before is now stale."""
    Tournament.objects.filter(pk=tournament.pk).update(
        version=F("version") + 1, touched_at=timezone.now(), **fields
    )
    push.announce_tournaments(Tournament.objects.filter(pk=tournament.pk))


def taken_names(picture: state.Picture) -> list[str]:
    """Every name in the tournament: its players', and its teams' (eşli)."""
    names = []
    for side in picture.entrants:
        names += list(side.players)
        if picture.tournament.esli and side.name not in side.players:
            names.append(side.name)
    return names


def may_change_entrants(picture: state.Picture) -> bool:
    """Before the draw; for tek also between rounds (before the next one is drawn)."""
    t = picture.tournament
    return t.stage == Stage.ENTRY or picture.next_draw == state.DRAW_TEK_ROUND


# --- Entrants -------------------------------------------------------------------------------


def add_entrants(tournament: Tournament, entries: list[tuple[str, tuple[str, ...]]]) -> int:
    """Add the entrants (the form's valid lines); refused with the line when one repeats a
    name now in the tournament: checked here, under the lock, as well as in the form, so that
    a double tap on "Ekle" (both forms valid) adds them once."""
    with transaction.atomic():
        t = locked(tournament, None)
        picture = state.picture(t)
        if not may_change_entrants(picture):
            raise Refused(CLOSED)
        refusal = repeated_entry(entries, taken_names(picture), esli=t.esli)
        if refusal:
            raise Refused(refusal)
        last = Entrant.objects.filter(tournament=t).aggregate(last=Max("number"))["last"] or 0
        Entrant.objects.bulk_create(
            Entrant(
                tournament=t,
                number=last + offset,
                name=name,
                player_1=players[0],
                player_2=players[1] if len(players) > 1 else "",
            )
            for offset, (name, players) in enumerate(entries, start=1)
        )
        changed(t)
    return len(entries)


def withdraw(tournament: Tournament, number: int, version: int) -> Entrant:
    """The entrant leaves: kept in the history (its games, its standings), never drawn again.
    Before the draw it simply leaves the list."""
    with transaction.atomic():
        t = locked(tournament, version)
        if not may_change_entrants(state.picture(t)):
            raise Refused(CLOSED)
        entrant = Entrant.objects.filter(tournament=t, number=number, withdrawn=False).first()
        if entrant is None:
            raise Refused(NO_SUCH_ENTRANT)
        entrant.withdrawn = True
        entrant.save(update_fields=["withdrawn"])
        changed(t)
    return entrant


# --- Draws ----------------------------------------------------------------------------------


def draw(tournament: Tournament, version: int) -> str:
    """The next draw the tournament is ready for: groups or the league, the next knock-out
    round, the next tek round. Returns which (state.DRAW_…)."""
    with transaction.atomic():
        t = locked(tournament, version)
        picture = state.picture(t)
        what = picture.next_draw
        if what is None:
            raise Refused(NOTHING_TO_DRAW)
        try:
            if what == state.DRAW_START and t.esli:
                draw_groups(t, picture)
            elif what == state.DRAW_KNOCKOUT:
                draw_knockout(t, picture)
            else:
                draw_tek_round(t, picture)
        except core.TournamentError as error:
            raise Refused(refusal_for(error)) from error
    return what


def active(picture: state.Picture) -> list[int]:
    return [side.id for side in picture.entrants if not side.withdrawn]


def draw_groups(t: Tournament, picture: state.Picture) -> None:
    entrants = active(picture)
    seed = secrets.randbelow(SEED_RANGE) if t.random_draw else None
    if t.layout == Layout.LEAGUE:
        if len(entrants) < 2:
            raise core.TournamentError("too_few", "a tournament needs at least two entrants")
        order = core.draw_groups(entrants, len(entrants), seed)  # one group: its order
        groups = (core.Group("", order[0].sides),)
    else:
        groups = core.draw_groups(entrants, t.group_size, seed)
        if sum(min(t.advance, len(group.sides)) for group in groups) < 2:
            # One side would come out of the groups: no knock-out could ever be drawn, and the
            # tournament would never end. Said before anyone plays.
            raise Refused(ONE_QUALIFIER)
    for group in groups:
        Entrant.objects.filter(pk__in=group.sides).update(group=group.name)
    names = names_of(picture)
    number = 0
    for round_number, at_tables in enumerate(core.group_schedule(groups, t.tables), start=1):
        for at in at_tables:
            number += 1
            pairing = Pairing.objects.create(
                tournament=t,
                number=number,
                phase=Pairing.Phase.GROUP,
                round=round_number,
                group=at.item.group,
                table=at.table,
                wave=at.wave,
                a_id=at.item.pairing.a,
                b_id=at.item.pairing.b,
            )
            start_games(t, pairing, names)
    stage = Stage.LEAGUE if t.layout == Layout.LEAGUE else Stage.GROUPS
    changed(t, stage=stage, seed=seed)


def draw_knockout(t: Tournament, picture: state.Picture) -> None:
    if t.stage == Stage.GROUPS:
        pairings = core.knockout_bracket(state.group_orders(picture), t.advance)
        round_number = 1
    else:
        last = picture.knockout[-1].lines
        pairings = core.next_knockout_round(
            [state.knockout_of(line) for line in last], state.knockout_winners(picture)
        )
        round_number = last[0].pairing.round + 1
    played = [p for p in pairings if p.b is not None]
    tables = {id(at.item): at for at in core.assign_tables(played, t.tables)}
    number = Pairing.objects.filter(tournament=t).aggregate(last=Max("number"))["last"] or 0
    names = names_of(picture)
    for knockout in pairings:
        number += 1
        at = tables.get(id(knockout))
        pairing = Pairing.objects.create(
            tournament=t,
            number=number,
            phase=Pairing.Phase.KNOCKOUT,
            round=round_number,
            table=at.table if at else None,
            wave=at.wave if at else 1,
            a_id=knockout.a,
            b_id=knockout.b,
            seed_a=knockout.seed_a,
            seed_b=knockout.seed_b,
        )
        if knockout.b is not None:
            start_games(t, pairing, names)
    changed(t, stage=Stage.KNOCKOUT)


def draw_tek_round(t: Tournament, picture: state.Picture) -> None:
    if t.stage == Stage.ENTRY and t.random_draw:
        t.seed = secrets.randbelow(SEED_RANGE)
    past = state.past_tek_rounds(picture)
    (drawn,) = core.tek_rounds(active(picture), 1, seed=t.seed or 0, played=past)
    names = names_of(picture)
    number = Game.objects.filter(tournament=t).aggregate(last=Max("number"))["last"] or 0
    for at in core.assign_tables(drawn.tables, t.tables):
        number += 1
        seats = list(at.item)
        match = start_match(t, [names[entrant][0] for entrant in seats])
        Game.objects.create(
            tournament=t,
            number=number,
            round=drawn.number,
            table=at.table,
            seats=seats,
            match=match,
        )
    byes = {**t.byes, str(drawn.number): list(drawn.sitting_out)}
    changed(t, stage=Stage.ROUNDS, byes=byes, seed=t.seed)


def names_of(picture: state.Picture) -> dict[int, tuple[str, ...]]:
    return {side.id: side.players for side in picture.entrants}


def start_games(t: Tournament, pairing: Pairing, names: dict) -> None:
    """The pairing's games, each its own match: team a at seats 0 and 2, team b at 1 and 3
    (RULES.md: seats 1&3 against 2&4)."""
    a, b = names[pairing.a_id], names[pairing.b_id]
    first = Game.objects.filter(tournament=t).aggregate(last=Max("number"))["last"] or 0
    for index in range(1, t.games_per_pairing + 1):
        match = start_match(t, [a[0], b[0], a[1], b[1]])
        Game.objects.create(
            tournament=t,
            number=first + index,
            pairing=pairing,
            index=index,
            round=pairing.round,
            table=pairing.table,
            match=match,
        )


def start_match(t: Tournament, names: list[str]) -> Match:
    return Match.start(
        names,
        teams=t.esli,
        planned_hands=t.hands_per_game,
        rules=t.rules,
        preset_slug=t.preset_slug,
        base_rules=t.base_rules,
    )


# --- Results by hand ------------------------------------------------------------------------


def enter_result(
    tournament: Tournament, number: int, totals: list[int], reason: str, entered: int
) -> Game:
    """A game's totals by hand (a forfeit, a table that kept paper), or a correction of them,
    kept with its reason. `entered` is how many results by hand the organiser's form showed
    for the game: another one entered since (a second organiser, a double tap) is refused with
    what it is (AlreadyEntered), never silently replaced; a count no page showed is Stale.
    Refused once a later draw has used
    the game's result (the rule a correction at the table obeys too: guard)."""
    with transaction.atomic():
        t = locked(tournament, None)
        game = Game.objects.filter(tournament=t, number=number).select_related("pairing").first()
        if game is None:
            raise Refused(NO_SUCH_GAME)
        if guard.used_by_a_later_draw(t, game):
            raise Refused(ALREADY_USED)
        seen = ManualResult.objects.filter(game=game).count()
        if entered > seen:  # more than the game ever had: no page drew that form
            raise Stale()
        if seen > entered:
            raise AlreadyEntered(game.totals)
        ManualResult.objects.create(game=game, totals=totals, before=game.totals, reason=reason)
        game.totals = totals
        game.save(update_fields=["totals"])
        changed(t)
    return game


# --- What a refusal says --------------------------------------------------------------------

CLOSED = _("Katılımcılar yalnız kuradan önce (tek turnuvada turlar arasında da) değişebilir.")
NO_SUCH_ENTRANT = _("Bu katılımcı listede yok ya da zaten çekildi.")
NOTHING_TO_DRAW = _("Şu an çekilecek kura yok: önce bu turun oyunları bitmeli.")
NO_SUCH_GAME = _("Bu turnuvada böyle bir oyun yok.")
ALREADY_USED = _(
    "Bu oyunun sonucu sonraki turun kurasında kullanıldı; artık değiştirilemez, masada da "
    "burada da."
)
TOO_FEW = _("Kura için yeterli katılımcı yok (eşli en az 2 takım, tek en az 4 oyuncu).")
ONE_QUALIFIER = _(
    "Bu ayarlarla gruplardan yalnız bir takım çıkar ve eleme olmaz. Bir takım daha ekleyin ya "
    "da turnuvayı lig olarak yeniden kurun."
)
NOT_DRAWN = _("Bu ayarlarla kura çekilemedi; katılımcı sayısını ve ayarları gözden geçirin.")


def refusal_for(error: core.TournamentError):
    if error.code == "too_few":
        return TOO_FEW
    if error.code == "too_many_groups":
        return _("En çok 26 grup olur; grup büyüklüğünü artırın.")
    return NOT_DRAWN
