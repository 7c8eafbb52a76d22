"""The app's models, each written beside its concept and gathered here, where Django looks for
an app's models (and where the rest of the code imports them from):

- a match, its rows and its changes: cetele.matches (models, records, editing, undo, errors);
- a table: cetele.tables.models; a house preset: cetele.house_rules.models;
- links and the admin's count of wrong passwords: cetele.sharing.models;
- what is forgotten when unused: cetele.your_data.models;
- the joined phones' seats, rows and objections: cetele.seats.models; the gösterge:
  cetele.deal.models; the tea tally: cetele.tea.models; a café tournament:
  cetele.tournaments.models.

Each of those imports only the ones below it, never this module: nothing here is imported back.
The migrations name `cetele.models.new_token` and `cetele.models.new_phone_key`: they stay here.
"""

from cetele.deal.models import OpenIndicator
from cetele.house_rules.models import HOUSE_PREFIX, HousePreset, PresetChanged
from cetele.matches.errors import (
    AlreadySaved,
    AlreadyUndone,
    HandConflict,
    HandGone,
    HandTaken,
    MatchFinished,
    NamesClash,
    NothingToUndo,
    ObjectionGone,
    ResultFrozen,
    SheetError,
    UndoRefused,
)
from cetele.matches.models import HIDDEN_UNTIL_LAST, Match
from cetele.matches.records import HAND_CHANGE_NAMES, Change, Hand, Player, place_among
from cetele.seats.models import DraftRow, Objection, SeatClaim
from cetele.sharing.models import (
    TOKEN_BYTES,
    MissCount,
    RetiredLink,
    new_phone_key,
    new_token,
    retire_deleted_links,
)
from cetele.tables.models import Table, TablePlayer
from cetele.tea.models import Drink, TeaItem, TeaRule
from cetele.tournaments.models import Entrant, Game, ManualResult, Pairing, Tournament
from cetele.your_data.models import TOUCH_EVERY, Forgettable

__all__ = [
    "HAND_CHANGE_NAMES",
    "HIDDEN_UNTIL_LAST",
    "HOUSE_PREFIX",
    "TOKEN_BYTES",
    "TOUCH_EVERY",
    "AlreadySaved",
    "AlreadyUndone",
    "Change",
    "DraftRow",
    "Drink",
    "Entrant",
    "Forgettable",
    "Game",
    "Hand",
    "HandConflict",
    "HandGone",
    "HandTaken",
    "HousePreset",
    "ManualResult",
    "Match",
    "MatchFinished",
    "MissCount",
    "NamesClash",
    "NothingToUndo",
    "ObjectionGone",
    "Objection",
    "OpenIndicator",
    "Pairing",
    "Player",
    "PresetChanged",
    "ResultFrozen",
    "RetiredLink",
    "SeatClaim",
    "SheetError",
    "Table",
    "TablePlayer",
    "TeaItem",
    "TeaRule",
    "Tournament",
    "UndoRefused",
    "new_phone_key",
    "new_token",
    "place_among",
    "retire_deleted_links",
]
