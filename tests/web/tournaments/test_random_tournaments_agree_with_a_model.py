"""A tournament's integrity, as a property: random tournaments (eşli in groups or a league, tek
rounds; various sizes, one game or the best of three, one hand or three a game) driven through
the pages a user opens — hands saved, corrected and deleted, "Geri al" and "Yinele" on a game's
edit link, results entered by hand, the draws — in random order, against a pure model of what
the standings and the bracket must be (tests/web/tournaments/model.py).

After every step the café's page (the view link) must show the model's standings, the bracket
with the winners the games' results name, and the champion only once the tournament is over,
the one who won the final; the bracket must hold exactly what the results it was drawn from
put through; a game's match must hold the model's hands. A change the tournament refuses (a
result a later draw used) answers a sentence and changes nothing.
"""

import html
import json
import os
import re

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

import scoring
from cetele.matches.views import RESULT_FROZEN
from cetele.tournaments import play
from cetele.tournaments.models import Entrant, Game, Pairing, Tournament
from tests.factories import form_data, sample_inputs
from tests.web.tournaments.model import GameModel, PairingModel, TournamentModel
from tests.web.tournaments.pages import (
    bracket_shown,
    hidden,
    page_bracket,
    page_champion,
    page_tables,
    page_tek,
    tables_shown,
    tek_shown,
    text_of,
)

pytestmark = pytest.mark.django_db

PRESET = "cetele-standart"

HANDS = st.tuples(st.integers(0, 3), st.sampled_from([0, 10, 30, 60]))  # who goes out, left
TOTALS = st.sampled_from([-101, 0, 50, 101, 202])  # few values: level games and ties come often


@st.composite
def setups(draw, layout: str) -> dict:
    setup = {
        "layout": layout,
        "hands_per_game": draw(st.sampled_from([1, 1, 3])),
        "games_per_pairing": draw(st.sampled_from([1, 3])),
        "random_draw": draw(st.booleans()),
        "tables": draw(st.sampled_from([None, None, 1, 2])),
        "points": draw(st.sampled_from([(2, 1, 0), (3, 1, 0), (1, 1, 1)])),
        "place_points": draw(st.sampled_from([(3, 2, 1, 0), (4, 2, 1, 0), (5, 3, 1, 1)])),
        "group_size": 2,
        "advance": 1,
        "rounds": 1,
    }
    if layout == "groups":
        setup["group_size"] = draw(st.integers(2, 4))
        setup["advance"] = draw(st.integers(1, min(2, setup["group_size"])))
        setup["entrants"] = draw(st.integers(2, 7))
        if setup["entrants"] <= setup["group_size"] and setup["advance"] == 1:
            # One group, one through: the group draw is refused (test_tournaments.py covers
            # that sentence); a tournament to play needs two through.
            setup["advance"] = 2
    elif layout == "league":
        setup["entrants"] = draw(st.integers(2, 5))
    else:
        setup["entrants"] = draw(st.integers(4, 9))
        setup["rounds"] = draw(st.integers(1, 3))
        setup["games_per_pairing"] = 1
    return setup


def create_data(setup: dict) -> dict:
    tek = setup["layout"] == "tek_rounds"
    win, draw, loss = setup["points"]
    data = {
        "name": "Kupa",
        "kind": "tek" if tek else "esli",
        "layout": setup["layout"],
        "preset": PRESET,
        "cezali": "1",
        "hands_per_game": setup["hands_per_game"],
        "games_per_pairing": setup["games_per_pairing"],
        "group_size": setup["group_size"],
        "advance": setup["advance"],
        "rounds": setup["rounds"],
        "tables": setup["tables"] or "",
        "win_points": win,
        "draw_points": draw,
        "loss_points": loss,
        **{f"place_{n}": points for n, points in enumerate(setup["place_points"], start=1)},
    }
    if setup["random_draw"]:
        data["random_draw"] = "on"
    return data


def entries(setup: dict) -> list[str]:
    if setup["layout"] == "tek_rounds":
        return [f"P{n}" for n in range(1, setup["entrants"] + 1)]
    return [f"T{n}: A{n}, B{n}" for n in range(1, setup["entrants"] + 1)]


# --- The machine ----------------------------------------------------------------------------


class TournamentIntegrity(RuleBasedStateMachine):
    """One tournament per run, played at random through its pages."""

    layout = "groups"  # eşli in groups, eşli in a league, tek rounds (the test's parameter)

    def __init__(self) -> None:
        super().__init__()
        self.client = Client()
        self.model: TournamentModel | None = None

    # --- Setting up, and what the draws made

    @initialize(data=st.data())
    def create(self, data) -> None:
        setup = data.draw(setups(self.layout))
        response = self.client.post(reverse("tournaments:tournament_create"), create_data(setup))
        assert response.status_code == 302, response.content.decode()[:2000]
        self.t = Tournament.objects.latest("pk")
        added = self.client.post(
            reverse("tournaments:tournament_entrants", args=[self.t.edit_token]),
            {"entries": "\n".join(entries(setup))},
        )
        assert added.status_code == 302
        self.model = TournamentModel(
            esli=setup["layout"] != "tek_rounds",
            layout=setup["layout"],
            planned=setup["hands_per_game"],
            per=setup["games_per_pairing"],
            advance=setup["advance"],
            rounds=setup["rounds"],
            points=setup["points"],
            place_points=setup["place_points"],
        )
        self.numbers = {}
        for entrant in Entrant.objects.filter(tournament=self.t):
            self.model.names[entrant.number] = entrant.name
            self.numbers[entrant.pk] = entrant.number
        self.rules = scoring.ruleset_for(self.t.rules)
        self.draw()

    def copy_the_draw(self) -> None:
        """What the draw made (groups, pairings, games, who sits out), into the model."""
        t = Tournament.objects.get(pk=self.t.pk)
        model = self.model
        model.stage = t.stage
        model.byes = [self.numbers[pk] for byes in t.byes.values() for pk in byes]
        for entrant in Entrant.objects.filter(tournament=t).exclude(group=""):
            model.groups[entrant.number] = entrant.group
        if model.layout == "league":
            model.groups = dict.fromkeys(model.names, "")
        for p in Pairing.objects.filter(tournament=t).exclude(number__in=model.pairings):
            b = self.numbers[p.b_id] if p.b_id else None
            model.pairings[p.number] = PairingModel(
                p.number, p.phase, p.round, p.group, self.numbers[p.a_id], b
            )
        games = Game.objects.filter(tournament=t).exclude(number__in=model.games)
        for game in games.select_related("match", "pairing").order_by("number"):
            pairing = game.pairing.number if game.pairing else None
            model.games[game.number] = GameModel(
                game.number,
                game.round,
                pairing,
                game.index,
                tuple(self.numbers[pk] for pk in game.seats),
                game.match.edit_token,
                game.match.view_token,
            )
            if pairing is not None:
                model.pairings[pairing].games.append(game.number)

    # --- The organiser

    @precondition(lambda self: not self.model.next_draw())
    @rule()
    def tap_draw_again(self) -> None:
        """ "Kura çek" with nothing to draw (a page from before the draw, a double tap)."""
        self.draw()

    def draw(self) -> None:
        """ "Kura çek": drawn when the model has something to draw, else a sentence."""
        model = self.model
        expected = model.next_draw()
        before = self.snapshot()
        version = Tournament.objects.get(pk=self.t.pk).version
        response = self.client.post(
            reverse("tournaments:tournament_draw", args=[self.t.edit_token]),
            {"version": version},
            follow=True,
        )
        page = html.unescape(response.content.decode())
        too_few = model.stage == "groups" and len(model.qualifiers()) < 2
        too_few |= not model.esli and len(model.names) - len(model.withdrawn) < 4
        if expected and too_few:
            # One side through all the groups, fewer than four players left: nothing to draw
            # (the app's sentence).
            event("refused: a draw with too few")
            assert str(play.TOO_FEW) in page
            assert self.snapshot() == before
        elif expected:
            assert "Kura çekildi" in page, page[:3000]
            self.copy_the_draw()
            assert not model.bracket_problems(), model.bracket_problems()
        else:
            assert str(play.NOTHING_TO_DRAW) in page
            assert self.snapshot() == before

    def between_tek_rounds(self) -> bool:
        model = self.model
        return not model.esli and model.stage == "rounds" and model.next_draw()

    @precondition(between_tek_rounds)
    @rule()
    def a_latecomer(self) -> None:
        """Tek: a player comes between rounds (the rounds missed score nothing)."""
        name = f"Geç{len(self.model.names) + 1}"
        url = reverse("tournaments:tournament_entrants", args=[self.t.edit_token])
        assert self.client.post(url, {"entries": name}).status_code == 302
        entrant = Entrant.objects.get(tournament=self.t, name=name)
        self.model.names[entrant.number] = name
        self.numbers[entrant.pk] = entrant.number

    @precondition(between_tek_rounds)
    @rule(data=st.data())
    def a_withdrawal(self, data) -> None:
        """Tek: a player leaves between rounds, kept in the table with what they played."""
        model = self.model
        staying = [n for n in model.names if n not in model.withdrawn]
        if not staying:
            return
        number = data.draw(st.sampled_from(staying))
        version = Tournament.objects.get(pk=self.t.pk).version
        url = reverse("tournaments:tournament_withdraw", args=[self.t.edit_token])
        response = self.client.post(url, {"entrant": number, "version": version}, follow=True)
        assert f"{model.names[number]} çekildi." in html.unescape(response.content.decode())
        model.withdrawn.add(number)

    @rule(data=st.data())
    def enter_result(self, data) -> None:
        """A result by hand, on the form as drawn now (or, now and then, on an older one)."""
        model, game = self.model, self.pick_game(data)
        url = reverse("tournaments:tournament_result", args=[self.t.edit_token, game.number])
        entered = int(hidden(self.client.get(url).content.decode(), "entered"))
        # Now and then a form drawn before the latest result by hand (a second organiser's, a
        # double tap), or one counting a result never entered (a garbled form).
        shown = max(entered + data.draw(st.sampled_from([0, 0, 0, 0, -1, 1])), 0)
        stale = shown != entered
        sides = 2 if model.esli else 4
        totals = data.draw(st.tuples(*[TOTALS] * sides))
        post = {f"total_{i}": total for i, total in enumerate(totals)}
        post |= {"reason": "Kâğıtta tutuldu", "entered": shown}
        before = self.snapshot()
        response = self.client.post(url, post)
        page = html.unescape(response.content.decode())
        if model.frozen(game.number):
            event("refused: a result by hand")
            assert response.status_code == 400 and str(play.ALREADY_USED) in page
            assert self.snapshot() == before
        elif shown > entered:  # counts a result never entered: no page draws that
            event("refused: a result by hand on a garbled form")
            assert response.status_code == 400 and "hiçbir şey yapılmadı" in page
            assert self.snapshot() == before
        elif stale:
            event("refused: a result by hand on a stale form")
            assert response.status_code == 409
            assert "Sizinki kaydedilmedi" in page  # the result that stands, to decide on
            assert self.snapshot() == before
        else:
            assert response.status_code == 302
            game.manual.append(totals)

    # --- A game's table, through its match's edit link

    @rule(data=st.data(), hand=HANDS)
    def save_hand(self, data, hand) -> None:
        game = self.pick_game(data)
        response = self.client.post(
            reverse("matches:hand_create", args=[game.edit_token]), form_data(self.inputs(hand))
        )
        if len(game.hands) >= self.model.planned:
            assert response.status_code == 200
            assert "Maçın bütün elleri oynandı." in html.unescape(response.content.decode())
        else:
            assert response.status_code == 302
            game.add(self.scores(hand))
        self.check_match(game)

    @rule(data=st.data(), hand=HANDS)
    def correct_hand(self, data, hand) -> None:
        game = self.pick_game(data, with_hands=True)
        if game is None:
            return
        number = data.draw(st.sampled_from(sorted(game.hands)))
        opened = self.client.get(reverse("matches:hand_detail", args=[game.edit_token, number]))
        version = hidden(opened.content.decode(), "version")
        response = self.client.post(
            reverse("matches:hand_edit", args=[game.edit_token, number]),
            form_data(self.inputs(hand), version=version),
        )
        if self.model.frozen(game.number):
            event("refused: a correction")
            assert response.status_code == 200
            assert str(RESULT_FROZEN) in html.unescape(response.content.decode())
        else:
            assert response.status_code == 302
            game.record("edit", number, self.scores(hand))
        self.check_match(game)

    @rule(data=st.data())
    def delete_hand(self, data) -> None:
        game = self.pick_game(data, with_hands=True)
        if game is None:
            return
        number = data.draw(st.sampled_from(sorted(game.hands)))
        response = self.client.post(
            reverse("matches:hand_delete", args=[game.edit_token, number]), follow=True
        )
        page = html.unescape(response.content.decode())
        if self.model.frozen(game.number):
            event("refused: a deletion")
            assert str(RESULT_FROZEN) in page
        else:
            assert "El silindi." in page
            game.record("delete", number, None)
        self.check_match(game)

    @rule(data=st.data())
    def delete_the_match(self, data) -> None:
        """The table's "Maçı sil", ticked: a tournament game's match is never deleted alone."""
        game = self.pick_game(data)
        url = reverse("your_data:match_delete", args=[game.edit_token])
        response = self.client.post(url, {"confirm": "on"})
        assert response.status_code == 409
        assert "tek başına silinemez" in html.unescape(response.content.decode())
        self.check_match(game)

    @rule(data=st.data(), redo=st.booleans())
    def undo_or_redo(self, data, redo) -> None:
        """ "Geri al" or "Yinele" as the match's page draws it."""
        game = self.pick_game(data)
        page = self.client.get(
            reverse("matches:match_detail", args=[game.edit_token])
        ).content.decode()
        name = "matches:match_redo" if redo else "matches:match_undo"
        action = reverse(name, args=[game.edit_token])
        actions = re.search(r'<nav id="match-actions".*?</nav>', page, re.S)[0]
        button = re.search(rf'action="{action}">.*?name="change" value="(\d+)"', actions, re.S)
        target = game.redoable() if redo else game.undoable()
        assert (button is not None) == (target is not None), (redo, game.changes)
        if button is None:
            return
        response = self.client.post(action, {"change": button[1]}, follow=True)
        answer = html.unescape(response.content.decode())
        if self.model.frozen(game.number):
            event("refused: an undo or a redo")
            assert str(RESULT_FROZEN) in answer
        else:
            assert str(RESULT_FROZEN) not in answer
            game.reverse(target, "redo" if redo else "undo")
        self.check_match(game)

    @rule(data=st.data())
    def finish_the_round(self, data) -> None:
        """Every table of the round plays its game to the end, or its result comes by hand."""
        for _ in range(12):  # a best of three may need a third game once two are in
            games = self.model.open_games()
            if not games:
                return
            for game in games:
                self.finish(game, data)

    @rule(data=st.data())
    def play_on(self, data) -> None:
        """What an organiser does all evening: the round played out, then the next draw."""
        self.finish_the_round(data)
        if self.model.next_draw():
            self.draw()

    def finish(self, game: GameModel, data) -> None:
        """The game played to its last hand at its table, or (now and then, or when its hands
        do not make a result: one by hand stands in) its result entered by hand."""
        model = self.model
        if data.draw(st.sampled_from([True, True, False])):
            while len(game.hands) < model.planned:
                hand = data.draw(HANDS)
                url = reverse("matches:hand_create", args=[game.edit_token])
                assert self.client.post(url, form_data(self.inputs(hand))).status_code == 302
                game.add(self.scores(hand))
            if model.result(game.number) is not None:
                return
        totals = data.draw(st.tuples(*[TOTALS] * (2 if model.esli else 4)))
        url = reverse("tournaments:tournament_result", args=[self.t.edit_token, game.number])
        post = {f"total_{i}": total for i, total in enumerate(totals)}
        post |= {"reason": "Hükmen", "entered": len(game.manual)}
        assert self.client.post(url, post).status_code == 302
        game.manual.append(totals)

    # --- Helpers

    def pick_game(self, data, with_hands: bool = False) -> GameModel | None:
        games = [g for g in self.model.games.values() if g.hands or not with_hands]
        return data.draw(st.sampled_from(games)) if games else None

    def inputs(self, hand) -> dict:
        finisher, remaining = hand
        return sample_inputs(4, finisher=finisher, remaining=remaining)

    def scores(self, hand) -> tuple[int, ...]:
        result = scoring.score_hand_json(self.inputs(hand), self.rules, self.model.esli)
        return tuple(result["scores"])

    def check_match(self, game: GameModel) -> None:
        """The game's match holds the model's hands, in order (its own view link's export)."""
        exported = self.client.get(reverse("sharing:view_export_json", args=[game.view_token]))
        hands = [tuple(h["result"]["scores"]) for h in json.loads(exported.content)["hands"]]
        assert hands == game.ordered_hands()

    def snapshot(self) -> tuple:
        """What the café's page shows: the tables, the bracket, the champion, the results by
        hand."""
        page = self.client.get(reverse("tournaments:view_tournament", args=[self.t.view_token]))
        page = page.content.decode()
        manual = [text_of(line) for line in re.findall(r"<li data-manual>(.*?)</li>", page, re.S)]
        games = re.findall(r"<li data-table=.*?</li>", page, re.S)
        return (
            page_tables(page),
            page_bracket(page),
            page_tek(page),
            page_champion(page),
            manual,
            games,
        )

    # --- What must always hold

    @invariant()
    def the_pages_show_the_model(self) -> None:
        if self.model is None or self.model.stage == "entry":
            return
        model = self.model
        champion = model.champion()
        if champion is not None:
            event(f"reached: a champion of {model.layout}")
        rounds = len(model.knockout_rounds())
        event(f"reached: {model.layout} {model.stage}, {rounds} knock-out rounds")
        assert not model.bracket_problems(), model.bracket_problems()
        if champion is not None and model.stage == "knockout":
            (final,) = model.knockout_rounds()[-1]
            assert champion == model.winner(final)
        # The café's page (its live part kept once drawn per version) and the organiser's
        # (drawn each time) alike.
        view = self.client.get(reverse("tournaments:view_tournament", args=[self.t.view_token]))
        edit = self.client.get(reverse("tournaments:tournament_detail", args=[self.t.edit_token]))
        for response in (view, edit):
            assert response.status_code == 200
            page = response.content.decode()
            if model.esli:
                assert page_tables(page) == tables_shown(model)
                assert page_bracket(page) == bracket_shown(model)
            else:
                assert page_tek(page) == tek_shown(model)
            named = model.names[champion] if champion is not None else None
            assert page_champion(page) == named
        assert ("data-draw" in edit.content.decode()) == model.next_draw()


# Examples per layout, bounded for a slow shared machine (about 40 s of CPU in all); groups, whose
# knock-out freezes results, get the most. More with CETELE_PROPERTY_EXAMPLES (a number).
EXAMPLES = {"groups": 14, "league": 4, "tek_rounds": 6}
# On PostgreSQL (make test runs this file again there) half as many: what the examples explore
# (draws, brackets, results frozen or corrected) is the app's logic, the same on either database,
# and the SQLite leg runs them all. On PostgreSQL every rule and check still runs against its
# queries and constraints, for some 25 s of the run's CPU less (docs/performance.md).
ON_POSTGRES = 0.5


@pytest.mark.parametrize("layout", list(EXAMPLES))
def test_a_tournament_always_agrees_with_its_games_results(db, layout):
    machine = type(f"Integrity_{layout}", (TournamentIntegrity,), {"layout": layout})
    examples = EXAMPLES[layout]
    if connection.vendor == "postgresql":
        examples = max(2, round(examples * ON_POSTGRES))
    examples = int(os.environ.get("CETELE_PROPERTY_EXAMPLES", 0)) or examples
    run_state_machine_as_test(
        machine,
        settings=settings(
            max_examples=examples,
            stateful_step_count=30,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )


# What the property found (a result form claiming results by hand never entered was a 500) is
# kept as an example in tests/web/tournaments/test_results_hold_together.py.
