"""The one domain exception: a hand or ruleset that may not be scored."""

from __future__ import annotations

from typing import Any

from scoring import labels


class InvalidHand(ValueError):
    """An invalid request, hand or ruleset.

    `code` is a stable English identifier, `field` the JSON path of the offending value
    (e.g. "hand.players[2].remaining", "rules.finishes.okey.winner"), `message` a Turkish sentence
    a player understands; `message_en` is the same in English.
    """

    def __init__(self, code: str, field: str, message: str, message_en: str | None = None):
        super().__init__(f"{field}: {message}")
        self.code = code
        self.field = field
        self.message = message
        self.message_en = message_en if message_en is not None else message

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "field": self.field, "message": self.message}

    def __reduce__(self):  # keep the exception picklable despite the custom __init__
        return (type(self), (self.code, self.field, self.message, self.message_en))


def invalid(code: str, field: str, **params: Any) -> InvalidHand:
    """Build an InvalidHand whose messages come from `labels.ERRORS` in both languages."""
    return InvalidHand(
        code,
        field,
        labels.error_message(code, field, "tr", params),
        labels.error_message(code, field, "en", params),
    )
