"""A ruleset checked against its declaration (`scoring.parameters`): every key known, every
value of its declared type and within its bounds, every missing key with a default filled in.

Apart from the declaration so that the declaration imports no error: the error messages read the
declaration's labels (scoring.fields), and the errors render those messages.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from scoring.checks import expect_bool, expect_int, expect_list, expect_object, expect_str, join
from scoring.errors import invalid
from scoring.model import FACE
from scoring.parameters import (
    ABSENT,
    BOOL,
    CHOICE,
    COUNTS,
    DECLARATION,
    INT,
    LENGTHS,
    MATCH_LENGTHS,
    MAX_AMOUNT,
    REQUIRED,
    TEXT,
    TIER_COLUMNS,
    TIERS,
    Group,
    Param,
)


@dataclass
class _Node:
    """An object of the ruleset: its declaration (a Group, or None for an always-there object)
    and its children (Params or Nodes) in declaration order."""

    group: Group | None = None
    children: dict[str, Param | _Node] = field(default_factory=dict)


def _tree() -> _Node:
    root = _Node()
    for item in DECLARATION:
        *heads, last = item.path.split(".")
        node = root
        for head in heads:
            child = node.children.setdefault(head, _Node())
            assert isinstance(child, _Node)
            node = child
        if isinstance(item, Group):
            node.children.setdefault(last, _Node()).group = item  # type: ignore[union-attr]
        else:
            node.children[last] = item
    return root


TREE = _tree()


def normalize(data: Any, field: str = "rules") -> dict[str, Any]:
    """A ruleset dict checked against the declaration (types, bounds, keys), with every missing
    key that has a default filled in; raises InvalidHand naming the path. Rules that span
    parameters are checked by `rules.validate_ruleset`."""
    return _object(TREE, data, field)


def _object(node: _Node, data: Any, field: str) -> dict[str, Any]:
    data = expect_object(data, field)
    for key in data:
        if key not in node.children:
            raise invalid("unknown_field", join(field, key))
    for key, child in node.children.items():
        if key not in data and _default(child) is REQUIRED:
            raise invalid("missing_field", join(field, key))
    result: dict[str, Any] = {}
    for key, child in node.children.items():
        if key not in data:
            default = _default(child)
            if default is not ABSENT:
                result[key] = copy.deepcopy(default)
            continue
        value = data[key]
        at = join(field, key)
        if isinstance(child, Param):
            result[key] = _leaf(child, value, at)
        elif value is None and child.group is not None:
            if child.group.off_value is not ABSENT:  # an optional finish row: null = no row
                result[key] = None
        else:
            result[key] = _object(child, value, at)
    return result


def _default(child: Param | _Node) -> Any:
    if isinstance(child, Param):
        return child.default
    return child.group.default if child.group is not None else REQUIRED


def _leaf(item: Param, value: Any, field: str) -> Any:
    if value is None and item.nullable:
        return None
    kind = item.type
    if kind == INT:
        return expect_int(value, field, item.lo, item.hi)
    if kind == BOOL:
        return expect_bool(value, field)
    if kind == TEXT:
        text = expect_str(value, field)
        if not text.strip():
            raise invalid("empty_value", field)
        return text
    if kind == CHOICE:
        return _choice(value, field, [choice for choice, _ in item.choices])
    if kind == COUNTS:
        if isinstance(value, str) and value != FACE:
            raise invalid("invalid_choice", field, choices=[f"“{FACE}”", f"{item.lo}–{item.hi}"])
        return value if value == FACE else expect_int(value, field, item.lo, item.hi)
    if kind == LENGTHS:
        return _lengths(value, field)
    if kind == TIERS:
        return _tiers(value, field)
    raise AssertionError(f"unknown parameter type {kind}")


def _choice(value: Any, field: str, choices: list[Any]) -> Any:
    for choice in choices:
        if type(value) is type(choice) and value == choice:
            return choice
    raise invalid(
        "invalid_choice",
        field,
        choices=[f"“{c}”" if isinstance(c, str) else str(c) for c in choices],
    )


def _lengths(value: Any, field: str) -> list[int]:
    lengths = expect_list(value, field)
    if not lengths:
        raise invalid("empty_value", field)
    seen: set[int] = set()
    for index, length in enumerate(lengths):
        length = _choice(length, f"{field}[{index}]", list(MATCH_LENGTHS))
        if length in seen:
            raise invalid("duplicate_value", f"{field}[{index}]", value=length)
        seen.add(length)
    return list(lengths)


def _tiers(value: Any, field: str) -> list[dict[str, int]]:
    tiers: list[dict[str, int]] = []
    for index, item in enumerate(expect_list(value, field)):
        at = f"{field}[{index}]"
        data = expect_object(item, at)
        for key in data:
            if key not in TIER_COLUMNS:
                raise invalid("unknown_field", join(at, key))
        for key in TIER_COLUMNS:
            if key not in data:
                raise invalid("missing_field", join(at, key))
        tier = {
            "series": expect_int(data["series"], join(at, "series"), 1, MAX_AMOUNT),
            "pairs": expect_int(data["pairs"], join(at, "pairs"), 1, MAX_AMOUNT),
            "points": expect_int(data["points"], join(at, "points"), -MAX_AMOUNT, 0),
        }
        # Increasing tiers make "the highest tier reached" mean the same for both openings.
        if tiers and (tier["series"] <= tiers[-1]["series"] or tier["pairs"] <= tiers[-1]["pairs"]):
            raise invalid("tiers_not_increasing", at)
        tiers.append(tier)
    return tiers
