"""What a change to a match did, said as a player says it, with its hand named by its place on
the sheet ("2. el"): the history's lines and the sentence after "Geri al" or "Yinele" are the
same words.

An undo and a redo are said by what they did to the sheet, not by chaining their labels
("Yinelendi — Geri alındı"): undoing a hand's adding takes it off the sheet ("2. el çeteleden
çıkarıldı"), undoing its deletion brings it back ("Silinen 2. el geri geldi"), and undoing a
redo undoes what the redo did again.
"""

from django.utils.translation import gettext_lazy

from cetele.models import Change

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
