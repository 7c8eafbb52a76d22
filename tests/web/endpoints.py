"""Every URL of the URLconf that takes a POST, filled with real keys so that the views are reached.

Enumerated from the URLconf, so that a new endpoint is covered by the tests that use this
without anyone remembering to add it. A route under a kind of key this file does not know fails
loudly: add that key to KEYS.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from cetele.models import HousePreset, Match, Table, Tournament
from cetele.tables.season import create_table
from tests.factories import make_match, make_tournament

# Which key fills <token:token> under each prefix: (model, token field).
KEYS = {
    "m/": (Match, "edit_token"),
    "v/": (Match, "view_token"),
    "k/": (Match, "join_token"),
    "ev/<token:token>/duzenle/": (HousePreset, "edit_token"),
    "ev/": (HousePreset, "view_token"),
    "masa/izle/": (Table, "view_token"),
    "masa/": (Table, "edit_token"),
    "tv/": (Tournament, "view_token"),
    "t/": (Tournament, "edit_token"),
}


def routes(resolver: URLResolver | None = None, prefix: str = "") -> list[str]:
    """Every route (as its pattern text) of the URLconf, includes flattened; regex routes (the
    catch-all for malformed links) left out."""
    found = []
    for pattern in (resolver or get_resolver()).url_patterns:
        text = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            found += routes(pattern, text)
        elif isinstance(pattern, URLPattern) and not text.startswith("^"):
            found.append(text)
    return found


@dataclass
class Keys:
    """The objects whose keys fill the routes; refreshed before each use (links rotate)."""

    match: Match
    house: HousePreset
    table: Table
    tournament: Tournament

    def refresh(self) -> bool:
        """Read the keys again; what was deleted through its edit link is replaced (then True)."""
        replaced = False
        try:
            self.match.refresh_from_db()
        except Match.DoesNotExist:
            self.match, replaced = make_match(hands=3), True
        try:
            self.house.refresh_from_db()
        except HousePreset.DoesNotExist:
            self.house, replaced = make_house(self.match.rules), True
        try:
            self.table.refresh_from_db()
        except Table.DoesNotExist:
            self.table, replaced = make_table(), True
        self.tournament.refresh_from_db()  # no link deletes a tournament
        return replaced

    def token_for(self, route: str) -> str:
        for start, (model, field) in KEYS.items():
            if route.startswith(start):
                owner = {
                    Match: self.match,
                    HousePreset: self.house,
                    Table: self.table,
                    Tournament: self.tournament,
                }[model]
                return getattr(owner, field)
        raise AssertionError(f"tests/web/endpoints.py does not know which key fills {route}")


def make_keys(hands: int = 3) -> Keys:
    match = make_match(hands=hands)
    return Keys(match, make_house(match.rules), make_table(), make_tournament(drawn=True))


def make_table() -> Table:
    return create_table("Perşembe masası", ["Ali", "Ayşe", "Can", "Deniz"])


def make_house(rules: dict) -> HousePreset:
    return HousePreset.objects.create(name="Bizim masa", rules=rules, base_slug="cetele-standart")


def fill(route: str, keys: Keys, number: int = 1) -> str:
    url = "/" + route
    if "<token:token>" in url:
        url = url.replace("<token:token>", keys.token_for(route))
    url = url.replace("<int:number>", str(number)).replace("<slug:slug>", "cetele-standart")
    assert not re.search(r"<\w+:\w+>", url), f"the tests do not know how to fill {route}"
    return url


def post_routes() -> list[str]:
    """The routes that take a POST: asked of each, with the keys of throw-away objects."""
    keys = make_keys(hands=1)
    client = Client()
    found = []
    for route in routes():
        keys.refresh()
        if client.post(fill(route, keys)).status_code != 405:
            found.append(route)
    return found
