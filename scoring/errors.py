"""The domain exceptions: a request, hand or ruleset that may not be scored.

`InvalidHand` is RULES.md's contract name: whatever is invalid in a request to `score_json` is
caught by `except scoring.InvalidHand`. A bad ruleset raises `InvalidRuleset`, a subclass, so
that the house-rule editor can tell a ruleset's mistake from a hand's while the contract holds.

Messages are rendered when they are shown, in the language asked (`message_in`), from the
error's code and parameters: a raise formats nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scoring.messages import error_message


class InvalidHand(ValueError):
    """An invalid request, hand or ruleset.

    `code` is a stable English identifier, `field` the JSON path of the offending value
    (e.g. "hand.players[2].remaining", "rules.finishes.okey.winner"), `params` what fills the
    message; `message` is the Turkish sentence a player understands (the JSON contract's),
    `message_in(lang)` the same in "tr" or "en", `page_message(lang, names)` the sentence a page
    shows, naming the players.
    """

    def __init__(self, code: str, field: str, params: Mapping[str, Any] | None = None):
        super().__init__(code, field)
        self.code = code
        self.field = field
        self.params = dict(params or {})

    def message_in(self, lang: str) -> str:
        """The contract's sentence (seats named "Oyuncu 3"), as score_json and the CLI give it."""
        return error_message(self.code, self.field, lang, self.params)

    def page_message(self, lang: str, names: Sequence[str] = ()) -> str:
        """The sentence a page shows: the players by name (`names`, by seat), and what to do
        instead of the contract's types and seat numbers."""
        return error_message(self.code, self.field, lang, self.params, names=tuple(names))

    @property
    def message(self) -> str:
        return self.message_in("tr")

    @property
    def message_en(self) -> str:
        return self.message_in("en")

    def __str__(self) -> str:
        return f"{self.field}: {self.message}"

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "field": self.field, "message": self.message}

    def __reduce__(self):  # keep the exception picklable despite the custom __init__
        return (type(self), (self.code, self.field, self.params))


class InvalidRuleset(InvalidHand):
    """A ruleset (a preset name, a full ruleset or a preset with an override) that may not be
    scored with; `field` is its path in the merged ruleset ("rules.finishes.okey.winner")."""

    @classmethod
    def from_error(cls, error: InvalidHand) -> InvalidRuleset:
        return error if isinstance(error, cls) else cls(error.code, error.field, error.params)


def invalid(code: str, field: str, **params: Any) -> InvalidHand:
    """An InvalidHand whose message comes from `scoring.messages` when it is shown."""
    return InvalidHand(code, field, params)
