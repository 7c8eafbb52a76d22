"""Small type checks for JSON input; each raises InvalidHand naming the field it checked.

JSON has no integer/boolean distinction in Python (`True` is an `int`), so every integer check
refuses booleans explicitly.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from scoring.errors import invalid


def join(field: str, key: object) -> str:
    """The JSON path of `key` inside `field` ("" is the request itself)."""
    return f"{field}.{key}" if field else str(key)


def expect_object(value: Any, field: str) -> dict:
    if not isinstance(value, dict):
        raise invalid("wrong_type", field, expected="object")
    return value


def check_keys(
    data: dict, field: str, required: Collection[str], optional: Collection[str] = ()
) -> None:
    """Every required key present, no key outside required + optional."""
    for key in data:
        if key not in required and key not in optional:
            raise invalid("unknown_field", join(field, key))
    for key in required:
        if key not in data:
            raise invalid("missing_field", join(field, key))


def expect_int(value: Any, field: str, lo: int | None = None, hi: int | None = None) -> int:
    if type(value) is not int:  # bool is a subclass of int, and JSON true is not a number
        raise invalid("wrong_type", field, expected="integer")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise invalid("out_of_range", field, lo=lo, hi=hi)
    return value


def expect_optional_int(value: Any, field: str, lo: int | None = None, hi: int | None = None):
    return None if value is None else expect_int(value, field, lo, hi)


def expect_bool(value: Any, field: str) -> bool:
    if type(value) is not bool:
        raise invalid("wrong_type", field, expected="boolean")
    return value


def expect_str(value: Any, field: str) -> str:
    if not isinstance(value, str):
        raise invalid("wrong_type", field, expected="string")
    return value


def expect_list(value: Any, field: str) -> list:
    if not isinstance(value, list):
        raise invalid("wrong_type", field, expected="list")
    return value


def expect_choice(value: Any, field: str, choices: Iterable[Any]) -> Any:
    """One of `choices`, compared by type too (1 is not "1", true is not 1)."""
    choices = tuple(choices)
    for choice in choices:
        if type(value) is type(choice) and value == choice:
            return choice
    raise invalid("invalid_choice", field, choices=[_show(choice) for choice in choices])


def _show(choice: Any) -> str:
    return f"“{choice}”" if isinstance(choice, str) else str(choice)
