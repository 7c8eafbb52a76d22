"""The words the engine shows a player, gathered for the web app's templates and forms.

The words live by job: `scoring.names` (finish, penalty and colour names), `scoring.sentences`
(breakdown sentences), `scoring.messages` (error messages), `scoring.fields` (field names),
`scoring.turkish` (suffixes). This module only re-exports what the web app imports as
`scoring.labels`.
"""

from scoring.fields import FIELD_NAMES, human_field
from scoring.messages import ERRORS, error_message
from scoring.names import (
    COLOUR_NAMES,
    FINISH_NAMES,
    FINISH_REASONS,
    LANGS,
    PENALTY_NAMES,
    colour_name,
    finish_name,
    penalty_name,
)
from scoring.sentences import DIVIDE, MINUS, TIMES, describe_step, format_breakdown, signed
from scoring.turkish import accusative, capitalize, genitive

turkish_accusative = accusative  # the name the web app and tests used before the split

__all__ = [
    "COLOUR_NAMES",
    "DIVIDE",
    "ERRORS",
    "FIELD_NAMES",
    "FINISH_NAMES",
    "FINISH_REASONS",
    "LANGS",
    "MINUS",
    "PENALTY_NAMES",
    "TIMES",
    "accusative",
    "capitalize",
    "colour_name",
    "describe_step",
    "error_message",
    "finish_name",
    "format_breakdown",
    "genitive",
    "human_field",
    "penalty_name",
    "signed",
    "turkish_accusative",
]
