"""Whether a tournament game's result may still change.

A game's result is worked out again from its match's hands at every read (cetele.tournaments.
state), so a change at the table is a change of the tournament. Once a later draw has used a
game's result (the knock-out drawn from the group tables, the next knock-out round drawn from
its winners), changing it would leave a bracket that contradicts its own games: the result is
then frozen, for the table's edit link (a correction, a deletion, an undo or a redo of a hand:
cetele.models.Match) and for the organiser's result by hand (cetele.tournaments.play) alike.

The question is asked with the tournament's row locked, the lock a draw holds: a correction and
a draw at the same moment are one after the other, so the draw reads the corrected hands or the
correction sees the draw.
"""

from cetele.tournaments.models import Game, Pairing, Stage, Tournament


def used_by_a_later_draw(tournament: Tournament, game: Game) -> bool:
    """Whether a draw after the game's round used its result (tek: the seating of later rounds
    does not depend on results, so never)."""
    pairing = game.pairing
    if pairing is None:
        return False
    if pairing.phase == Pairing.Phase.GROUP:
        return tournament.stage == Stage.KNOCKOUT
    later = Pairing.objects.filter(
        tournament=tournament, phase=Pairing.Phase.KNOCKOUT, round__gt=pairing.round
    )
    return later.exists()


def result_frozen(match_id: int) -> bool:
    """Whether the match is a tournament game whose result a later draw used; locks the
    tournament's row for the rest of the caller's transaction when it is a game."""
    game = Game.objects.filter(match_id=match_id).select_related("pairing").first()
    if game is None or game.pairing is None:
        return False
    tournament = Tournament.objects.select_for_update().get(pk=game.tournament_id)
    return used_by_a_later_draw(tournament, game)


def shown_frozen(match_id: int) -> bool:
    """The same question for a page to say so before anyone taps (no lock: a draw a moment
    later is still caught by result_frozen when a change is asked for)."""
    game = Game.objects.filter(match_id=match_id).select_related("pairing", "tournament").first()
    if game is None or game.pairing is None:
        return False
    return used_by_a_later_draw(game.tournament, game)


def is_a_game(match_id: int) -> bool:
    """Whether the match is one of a tournament's games."""
    return Game.objects.filter(match_id=match_id).exists()
