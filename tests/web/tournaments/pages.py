"""Reading a tournament's pages as a user reads them, for
tests/web/tournaments/test_results_hold_together.py: the group and league tables, the tek table,
the bracket, the champion (cetele/tournaments/_live_inside.html), and a form's hidden field; and
what they must show for a tournament's model (tests/web/tournaments/model.py), written the same
way."""

import html
import re

from tests.web.tournaments.model import TournamentModel

MINUS = "\u2212"  # the score filter's minus sign


def text_of(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment)).strip()


def number_of(cell: str) -> str:
    return text_of(cell).replace(MINUS, "-")


def page_tables(page: str) -> dict[str, list[tuple]]:
    """Each group's (or the league's) table: (side, played, won, drawn, lost, games, averaj,
    points) per row, in the page's order."""
    tables = {}
    for group, body in re.findall(
        r'<table class="sheet stats" data-group="([^"]*)">(.*?)</table>', page, re.S
    ):
        rows = []
        for row in re.findall(r"<tr data-side=[^>]*>(.*?)</tr>", body, re.S):
            cells = [number_of(c) for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]
            rows.append(tuple(cells[1:]))
        tables[group] = rows
    return tables


def page_tek(page: str) -> list[tuple]:
    """The tek table: (player, played, byes, averaj, points) per row."""
    body = re.search(r"<table class=\"sheet stats\" data-tek>(.*?)</table>", page, re.S)
    if body is None:
        return []
    rows = []
    for row in re.findall(r"<tr data-side=[^>]*>(.*?)</tr>", body[1], re.S):
        cells = [number_of(c) for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]
        rows.append(tuple(cells[1:]))
    return rows


def page_bracket(page: str) -> list[list[tuple]]:
    """The knock-out, round by round: (a, b or None, winner or None) per pairing."""
    rounds = []
    for body in re.findall(r'<ul class="bracket"[^>]*>(.*?)</ul>', page, re.S):
        lines = []
        for item in re.findall(r"<li data-pairing>(.*?)</li>", body, re.S):
            winner = re.search(r"data-winner>([^<]+)<", item)
            sides = text_of(re.sub(r"<span.*?</span>", "", item.split("→")[0], flags=re.S))
            a, _, b = sides.partition(" – ")
            lines.append((a.strip(), b.strip() or None, winner[1] if winner else None))
        rounds.append(lines)
    return rounds


def page_champion(page: str) -> str | None:
    found = re.search(r"data-champion>.*?</p>", page, re.S)
    if found is None:
        return None
    name = re.search(r"<strong>([^<]+)</strong>", found[0])
    return name[1] if name else ""


def points_text(value) -> str:
    """Place points as the page writes them: whole, or to two decimals with a comma."""
    if value.denominator == 1:
        return str(int(value))
    return str(round(float(value), 2)).replace(".", ",")


def hidden(page: str, name: str) -> str:
    return re.search(rf'name="{name}"(?: value="([^"]*)")?', page)[1] or ""


# --- What the pages must show -----------------------------------------------------------------


def tables_shown(model: TournamentModel) -> dict[str, list[tuple]]:
    """The model's group (or league) tables, as page_tables reads them."""
    names = model.names
    return {
        group: [
            (
                names[r.side],
                str(r.played),
                str(r.won),
                str(r.drawn),
                str(r.lost),
                f"{r.games_won}–{r.games_lost}",
                str(r.averaj),
                str(r.points),
            )
            for r in model.table(group)
        ]
        for group in model.group_names()
    }


def bracket_shown(model: TournamentModel) -> list[list[tuple]]:
    """The model's knock-out with the winners its results name, as page_bracket reads it."""
    names = model.names
    return [
        [
            (
                names[p.a],
                names[p.b] if p.b else None,
                names[w] if (w := model.winner(p)) is not None else None,
            )
            for p in knockout_round
        ]
        for knockout_round in model.knockout_rounds()
    ]


def tek_shown(model: TournamentModel) -> list[tuple]:
    """The model's tek table, as page_tek reads it (a withdrawn player marked so)."""
    gone = {p: " çekildi" if p in model.withdrawn else "" for p in model.names}
    return [
        (model.names[p] + gone[p], str(played), str(byes), str(averaj), points_text(points))
        for p, points, played, byes, averaj in model.tek_table()
    ]
