"""Why a change to the sheet was not made: each is told to the phone as a sentence, never as an
error page (the views say it; `message` is for the user where the raiser knows it best)."""


class SheetError(Exception):
    """A change to the sheet that cannot be made; `message` is for the user."""

    message = ""


class AlreadySaved(SheetError):
    """The same form was submitted twice (double tap, retried request): nothing new was saved."""


class MatchFinished(SheetError):
    """Every planned hand has been played."""


class HandConflict(SheetError):
    """Another phone changed this hand since the form was opened."""

    def __init__(self, hand) -> None:
        super().__init__()
        self.hand = hand


class HandTaken(SheetError):
    """Another phone saved the place this new hand was entered as (e.g. both entered hand 5)."""

    def __init__(self, hands) -> None:
        super().__init__()
        self.hands = list(hands)  # the hands saved at and after that place


class NothingToUndo(SheetError):
    pass


class HandGone(SheetError):
    """The hand being corrected or deleted was deleted (or its addition undone) by another phone
    since this phone opened it."""


class ResultFrozen(SheetError):
    """The match is a tournament game whose result a later draw of the tournament used (its
    knock-out drawn from the group tables, the next round from its winners): its hands no
    longer change (cetele.tournaments.guard)."""


class UndoRefused(SheetError):
    """ "Geri al" or "Yinele" named a change that is no longer the one it would reverse: another
    phone changed the sheet since. `latest` is the change that came between (None if none)."""

    def __init__(self, latest) -> None:
        super().__init__()
        self.latest = latest


class AlreadyUndone(SheetError):
    """The change an undo names was already undone (a double tap, a retried request, or another
    phone's undo): nothing more is done. `change` is that change."""

    def __init__(self, change) -> None:
        super().__init__()
        self.change = change


class NamesClash(SheetError):
    """A rename would give two players one name (another phone renamed meanwhile)."""


class ObjectionGone(SheetError):
    """The objection being closed is not there (never was, or went with its match)."""
