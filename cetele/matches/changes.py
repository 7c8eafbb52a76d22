"""What a change to a match did, said as a player says it, with its hand named by its place on
the sheet ("2. el"): the history's lines and the sentence after "Geri al" or "Yinele" are the
same words.

An undo and a redo are said by what they did to the sheet, not by chaining their labels
("Yinelendi — Geri alındı"): undoing a hand's adding takes it off the sheet ("2. el çeteleden
çıkarıldı"), undoing its deletion brings it back ("Silinen 2. el geri geldi"), and undoing a
redo undoes what the redo did again.
"""

from django.http import Http404
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cetele.models import Change, Hand, Match, place_among
from scoring.sheet import team_split

Action = Change.Action
DONE, UNDONE, REDONE = range(3)

# By the kind of change: (what it did, what undoing it did, what doing it again did).
SENTENCES = {
    Action.CREATE: (
        gettext_lazy("%(number)s. el eklendi"),
        gettext_lazy("%(number)s. el çeteleden çıkarıldı"),
        gettext_lazy("%(number)s. el yeniden eklendi"),
    ),
    Action.EDIT: (
        gettext_lazy("%(number)s. el düzeltildi"),
        gettext_lazy("%(number)s. el düzeltmeden önceki haline döndü"),
        gettext_lazy("%(number)s. el yeniden düzeltildi"),
    ),
    Action.DELETE: (
        gettext_lazy("%(number)s. el silindi"),
        gettext_lazy("Silinen %(number)s. el geri geldi"),
        gettext_lazy("%(number)s. el yeniden silindi"),
    ),
    Action.RENAME: (
        gettext_lazy("Oyuncu adları değişti"),
        gettext_lazy("Oyuncu adları eski haline döndü"),
        gettext_lazy("Oyuncu adları yeniden değişti"),
    ),
}


def what_it_did(change: Change) -> tuple[str, int]:
    """(the kind of change, DONE / UNDONE / REDONE) that `change` amounts to on the sheet."""
    if change.action == Action.UNDO:
        undone = change.undoes
        if undone.action == Action.REDO:  # undoing a redo undoes what it did again
            return undone.redone_action(), UNDONE
        return undone.action, UNDONE
    if change.action == Action.REDO:
        return change.redone_action(), REDONE
    return change.action, DONE


def said(change: Change, place: int | None) -> str:
    """The sentence for `change`, its hand at `place` on the sheet (None: a change of no hand)."""
    if change.action == Action.RESCORE:  # not a person's change: its label says it
        return str(change.get_action_display())
    action, how = what_it_did(change)
    if place is None and action != Action.RENAME:  # a hand's change with no hand to name
        return str(change.get_action_display())
    return SENTENCES[action][how] % {"number": place}


def reversed_sentence(match: Match, change: Change, *, redo: bool) -> str:
    """What a "Geri al" or a "Yinele" just did, as the history says it, naming the hand by its
    place on the sheet: "2. el çeteleden çıkarıldı.", "Silinen 5. el geri geldi."."""
    reversed_change = change.undoes.undoes if redo else change.undoes
    return capfirst(said(change, change_place(match, reversed_change))) + "."


def change_came_between(match: Match, latest: Change | None) -> str:
    """Why a "Geri al" or "Yinele" did nothing: the change another phone made since this
    phone's page was drawn ("2. el başka bir telefondan eklendi; hiçbir şey geri alınmadı.")."""
    if latest is None:
        return _("Geri alınacak bir değişiklik yok.")
    place = {"number": change_place(match, latest)}
    what = {
        Change.Action.CREATE: _("%(number)s. el başka bir telefondan eklendi") % place,
        Change.Action.EDIT: _("%(number)s. el başka bir telefondan düzeltildi") % place,
        Change.Action.DELETE: _("%(number)s. el başka bir telefondan silindi") % place,
        Change.Action.RENAME: _("Oyuncu adları başka bir telefondan değiştirildi"),
        Change.Action.UNDO: _("Başka bir telefondan bir değişiklik geri alındı"),
        Change.Action.REDO: _("Başka bir telefondan bir değişiklik yinelendi"),
    }.get(latest.action, _("Çetele başka bir telefondan değişti"))
    return _("%(what)s; hiçbir şey geri alınmadı.") % {"what": what}


def change_place(match: Match, change: Change) -> int | None:
    """The place on the sheet ("5. el") of the hand a change is about: where it is, or, for a
    deleted hand, where it was; None for a change of no hand (the players' names). Counted in
    the database; a drawing that has the hands' numbers already uses cetele.models.place_among."""
    if not change.hand_number:
        return None
    return match.hands.filter(number__lt=change.hand_number).count() + 1


def hand_place(numbers: list[int], change: Change) -> int | None:
    return place_among(numbers, change.hand_number) if change.hand_number else None


def score_rows(change: Change, teams: bool) -> list[tuple[str, list[int], tuple[int, ...]]]:
    """A hand's scores before and after a change, as the history shows them: (label, the
    seats' scores, the teams' scores — none in singles), the teams' as the engine gave them
    (`team_scores`) or, for a result stored without them, as scoring.sheet adds them up."""
    rows = []
    for label, state in ((_("Önce"), change.before), (_("Sonra"), change.after)):
        if not state or "result" not in state:
            continue
        result = state["result"]
        scores = result["scores"]
        team_scores = ()
        if teams:
            team_scores = tuple(result.get("team_scores") or team_split(scores))
        rows.append((label, scores, team_scores))
    return rows


def gone_hand(match: Match, number: int) -> Hand:
    """A hand another phone deleted (or whose addition it undid) while this one was correcting
    it, as it last was: the correction is shown again as typed, with why it was not saved.
    404 for a hand the match never had."""
    for change in match.changes.filter(hand_number=number):  # the latest first
        state = change.before or change.after
        if state and "inputs" in state:
            return Hand(match=match, number=number, inputs=state["inputs"], result=state["result"])
    raise Http404(_("Bu el yok."))
