"""How the pages name a tournament's rounds and games, in one place: the live page, the café's
view page, the printed table sheets, the games' list and a game's own match pages all say
"2. tur, masa 1", "Yarı final, masa 2" or "Final" through these functions.

A knock-out round is named by its stage, and its stage by the bracket: the number of pairings
drawn in that round (byes included), which halves from one round to the next. The project has
no match for third place, so the last round is the final alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from cetele.tournaments.models import Game, Pairing, Stage


def round_title(pairings: int) -> str:
    """A knock-out round by the number of its pairings: the final, the semi-finals, …"""
    if pairings == 1:
        return _("Final")
    if pairings == 2:
        return _("Yarı final")
    if pairings == 4:
        return _("Çeyrek final")
    return _("Son %(sides)s") % {"sides": 2 * pairings}


def game_name(round_number: int, table: int | None, knockout_pairings: int | None) -> str:
    """A game by its round and table; `knockout_pairings`: the pairings of its knock-out round
    (None for a group, league or tek round). The final is played at one table: its name is
    enough. Each stage is its own sentence: English names one game "Semi-final", the round
    "Semi-finals"."""
    place = {"table": table}
    if knockout_pairings == 1:
        return round_title(1)
    if knockout_pairings == 2:
        return _("Yarı final, masa %(table)s") % place
    if knockout_pairings == 4:
        return _("Çeyrek final, masa %(table)s") % place
    if knockout_pairings:
        return _("Son %(sides)s, masa %(table)s") % {**place, "sides": 2 * knockout_pairings}
    return _("%(round)s. tur, masa %(table)s") % {**place, "round": round_number}


def game_stage(round_number: int, knockout_pairings: int | None) -> str:
    """One game's round without its table, for a table's printed sheet (which names the
    table): "2. tur", "Yarı final" (in English one "Semi-final", not the round's
    "Semi-finals")."""
    if knockout_pairings == 2:
        return pgettext("bir oyunun turu", "Yarı final")
    if knockout_pairings == 4:
        return pgettext("bir oyunun turu", "Çeyrek final")
    return round_name(round_number, knockout_pairings)


def round_name(round_number: int, knockout_pairings: int | None) -> str:
    """A whole round: "2. tur", or the knock-out stage ("Yarı final")."""
    if knockout_pairings:
        return round_title(knockout_pairings)
    return _("%(number)s. tur") % {"number": round_number}


def draw_due(stage: str, finished_pairings: int | None, finished_round: int) -> str:
    """What the organiser's page says above "Kura çek" once a round is over: which round ended
    and what the draw is for. `finished_pairings`: the pairings of the knock-out round just
    finished (None before the knock-out); `finished_round`: the tek round just finished."""
    if stage == Stage.GROUPS:
        return _("Grup maçları bitti: eleme kurasını çekin.")
    if stage == Stage.KNOCKOUT and finished_pairings == 2:
        return _("Yarı finaller bitti: finalin kurasını çekin.")
    if stage == Stage.KNOCKOUT and finished_pairings == 4:
        return _("Çeyrek finaller bitti: yarı finallerin kurasını çekin.")
    if stage == Stage.KNOCKOUT and finished_pairings == 8:
        return _("Son 16 turu bitti: çeyrek finallerin kurasını çekin.")
    if stage == Stage.KNOCKOUT and finished_pairings:
        return _("Son %(sides)s turu bitti: son %(next)s turunun kurasını çekin.") % {
            "sides": 2 * finished_pairings,
            "next": finished_pairings,
        }
    return _("%(round)s. tur bitti: %(next)s. turun kurasını çekin.") % {
        "round": finished_round,
        "next": finished_round + 1,
    }


# What comes after the round the printed sheets hold (Picture.after_this_round).
NEXT_DRAWN = "drawn"  # groups, league: the next round's games exist; they print once this ends
NEXT_BY_DRAW = "draw"  # knock-out, tek: the next round's games come with its draw
LAST_ROUND = "last"


def sheets_note(round_title_now: str, after: str) -> tuple[str, str]:
    """The two sentences above the printed sheets: which round they hold, and when the next
    round's sheets come."""
    holds = _("Bu sayfada yalnız bu turun masaları var: %(round)s.") % {"round": round_title_now}
    if after == NEXT_DRAWN:
        return holds, _("Sonraki turun kâğıtları bu tur bitince burada çıkar.")
    if after == NEXT_BY_DRAW:
        return holds, _("Sonraki turun kâğıtları kurası çekilince burada çıkar.")
    return holds, _("Bu, turnuvanın son turu.")


# --- A game's match pages -----------------------------------------------------------------


@dataclass(frozen=True)
class MatchHeading:
    """What a tournament game's match pages say above the sheet: the tournament, the game's
    round and table, its place in a best of three and, eşli, the two teams by name (tek, the
    sheet's players are the entrants)."""

    tournament: str
    game: str
    index: int | None  # best of three: 1, 2 or 3
    sides: tuple[str, ...]


def match_heading(match) -> MatchHeading | None:
    """The heading of `match`'s pages if it is a tournament's game, else None: one query (two
    in a knock-out round, to name its stage)."""
    game = (
        Game.objects.filter(match=match)
        .select_related("tournament", "pairing__a", "pairing__b")
        .first()
    )
    if game is None:
        return None
    pairing = game.pairing
    knockout_pairings = None
    if pairing is not None and pairing.phase == Pairing.Phase.KNOCKOUT:
        knockout_pairings = Pairing.objects.filter(
            tournament_id=game.tournament_id, phase=pairing.phase, round=pairing.round
        ).count()
    tournament = game.tournament
    return MatchHeading(
        tournament=tournament.name,
        game=game_name(game.round, game.table, knockout_pairings),
        index=game.index if pairing is not None and tournament.games_per_pairing > 1 else None,
        sides=(pairing.a.name, pairing.b.name) if pairing is not None else (),
    )
