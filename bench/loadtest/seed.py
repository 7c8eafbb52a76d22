"""The tables a stack's steps play, made through the ORM before the run: matches with a few
hands played and, with --tournament, a café tournament drawn through the organiser's own code."""

from __future__ import annotations

import random
import time

from bench.harness import add_sample_hands, seed_match
from bench.loadtest.phones import Table


def seed_tables(count: int, hands: int, joined_share: float = 0.0) -> list[Table]:
    """Matches through the ORM, in one transaction, each with a few hands already played; that
    share of them played with the players' own phones joined."""
    import django

    django.setup()
    from django.db import connections, transaction

    rng = random.Random(2000)
    tables = []
    with transaction.atomic():
        for _ in range(count):
            match = seed_match(planned=1000, hands=hands, rng=rng)
            joined = match.join_token if rng.random() < joined_share else ""
            tables.append(Table(match.edit_token, match.view_token, match.version, joined))
    connections.close_all()
    return tables


def seeded(args) -> list[Table]:
    """The tables a stack's steps play (and its tournament's first, when it has one)."""
    started = time.perf_counter()
    tables = seed_tables(max(args.step_list), args.hands, args.joined)
    args.tournament_view = ""
    if args.tournament:  # its tables are the first to play, in every step
        args.tournament_view, cup = seed_tournament(
            args.tournament, args.tournament_tables, args.hands
        )
        tables = cup + tables[: max(args.step_list) - len(cup)]
    print(f"seeded {len(tables)} tables in {time.perf_counter() - started:.1f} s")
    return tables


def seed_tournament(teams: int, tables: int, hands: int) -> tuple[str, list[Table]]:
    """A café tournament (issue 32) through the organiser's own code: `teams` eşli teams in
    groups of four, best of three, 11-hand games on `tables` tables, drawn; the first game at
    each table, with `hands` hands played, as a live table. Returns its view token and those
    tables."""
    import django

    django.setup()
    from django.db import connections

    import scoring
    from cetele.tournaments import play
    from cetele.tournaments.models import Game, Tournament

    rules = scoring.resolve_rules("cetele-standart")
    tournament = Tournament.objects.create(
        name="Eşli 101 Turnuvası",
        kind="esli",
        layout="groups",
        rules=rules,
        preset_slug="cetele-standart",
        base_rules=rules,
        hands_per_game=11,
        games_per_pairing=3,
        group_size=4,
        advance=2,
        tables=tables,
        place_points=[3, 2, 1, 0],
    )
    play.add_entrants(
        tournament, [(f"Takım {n}", (f"Oyuncu {n}A", f"Oyuncu {n}B")) for n in range(1, teams + 1)]
    )
    tournament.refresh_from_db()
    play.draw(tournament, tournament.version)
    rng = random.Random(2100)
    live: list[Table] = []
    seen_tables: set[int] = set()
    for game in Game.objects.filter(tournament=tournament).select_related("match"):
        if game.table in seen_tables or game.match is None:
            continue  # one game a table plays now: the first drawn for it
        seen_tables.add(game.table)
        match = add_sample_hands(game.match, hands, rng)
        live.append(Table(match.edit_token, match.view_token, match.version, teams=True))
    connections.close_all()
    return tournament.view_token, live
