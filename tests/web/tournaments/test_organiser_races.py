"""Two of the organiser's taps at the same moment, for real: gunicorn workers sharing the
database (a SQLite file by default, PostgreSQL under scripts/with-postgres.sh), each phone a
client of its own. A double tap on "Ekle" adds the entrants once; two organisers entering one
game's result get one saved and the other told, in a sentence, what was entered; a table's
correction at the moment of the draw that uses its result never leaves a bracket that
contradicts the group tables."""

import re
from functools import partial

import pytest

from bench.harness import Client, Gunicorn
from tests.web.races import at_once, race_server, same_phone
from tests.web.tournaments.test_tournaments import CREATE

ATTEMPTS = 4
TEAMS = "Kartallar: Ayşe, Ali\nŞahinler: Bora, Cem"
SETTINGS = CREATE | {"hands_per_game": "1", "games_per_pairing": "1"}  # one hand a game


@pytest.fixture(scope="module")
def server(tmp_path_factory, static_root):
    """One server for the module's tests, each at a tournament of its own: starting a server cost
    about 2 s of CPU."""
    with race_server(tmp_path_factory.mktemp("races"), static_root, workers=2) as running:
        yield running


def organiser(server: Gunicorn) -> tuple[Client, str]:
    """A new tournament made through its form: the organiser's phone and its page's path."""
    phone = Client(server.port)
    phone.get("/turnuva/yeni/")
    status, headers, _ = phone.post("/turnuva/yeni/", SETTINGS)
    assert status == 302, status
    path = headers["location"]
    phone.get(path)
    return phone, path


def entrants_listed(html: str) -> int:
    """How many entrants the organiser's page lists (each with its "Çekil" form)."""
    return len(re.findall(r'name="entrant" value="\d+"', html))


@pytest.mark.database  # its server's database is DATABASE_URL's on the PostgreSQL leg
def test_a_double_tap_on_ekle_adds_the_entrants_once(server):
    for _attempt in range(ATTEMPTS):
        phone, path = organiser(server)
        taps = [phone, same_phone(phone)]
        answers = at_once(
            *(lambda p=p, to=path + "katilimcilar/": p.post(to, {"entries": TEAMS}) for p in taps)
        )

        # Each tap is answered: added (302), or refused as a repeat, by the form when the
        # other's entrants were in before it was checked (400), else under the lock (302).
        assert {status for status, _, _ in answers} <= {302, 400}, answers
        pages = [  # what each tap then shows
            body.decode() if status == 400 else tap.get(path)[2].decode()
            for tap, (status, _, body) in zip(taps, answers, strict=True)
        ]
        assert entrants_listed(taps[0].get(path)[2].decode()) == 2
        told = [html for html in pages if "1. satır: Bu ad başka bir oyuncuda da var" in html]
        assert len(told) == 1, "the second tap is told why nothing more was added"


def drawn_game(server: Gunicorn) -> tuple[Client, str]:
    """A tournament of two teams drawn: its one game's result page."""
    phone, path = organiser(server)
    assert phone.post(path + "katilimcilar/", {"entries": TEAMS})[0] == 302
    version = re.search(r'name="version" value="(\d+)"', phone.get(path)[2].decode()).group(1)
    assert phone.post(path + "kura/", {"version": version})[0] == 302
    return phone, path + "oyun/1/"


def shown_entered(html: str) -> str:
    """What the result form says the page showed (0 on a page that does not say)."""
    found = re.search(r'name="entered" value="(\d+)"', html)
    return found.group(1) if found else "0"


@pytest.mark.database  # its server's database is DATABASE_URL's on the PostgreSQL leg
def test_two_organisers_entering_one_result_one_is_saved_and_the_other_told_what_it_is(server):
    results = [("-101", "250"), ("300", "-50")]
    for _attempt in range(ATTEMPTS):
        phone, url = drawn_game(server)
        phones = [phone, same_phone(phone)]
        forms = []
        for n, (mine, (a, b)) in enumerate(zip(phones, results, strict=True)):
            entered = shown_entered(mine.get(url)[2].decode())
            forms.append({"total_0": a, "total_1": b, "reason": f"masa {n}", "entered": entered})

        taps = zip(phones, forms, strict=True)
        answers = at_once(*(lambda p=p, f=f, to=url: p.post(to, f) for p, f in taps))

        statuses = [status for status, _, _ in answers]
        assert sorted(statuses) == [302, 409], statuses
        saved = statuses.index(302)
        a, b = results[saved]
        told = answers[1 - saved][2].decode()
        minus = "\u2212"
        stands = f"Kartallar {a.replace('-', minus)} · Şahinler {b.replace('-', minus)}"
        assert f"siz bu sayfayı açtıktan sonra elle girildi: {stands}." in told
        page = phone.get(url)[2].decode()
        assert f'value="{a}"' in page and f'value="{b}"' in page  # the result that stands
        assert shown_entered(page) == "1"


def group_tables_and_final(html: str) -> tuple[list[str], list[str]]:
    """The café page's group leaders (A, B) and the final's two teams."""
    leaders = re.findall(
        r'<table class="sheet stats" data-group="[^"]*">.*?data-side="([^"]+)"', html, re.S
    )
    final = re.findall(r"<li data-pairing>\s*([^<–]+?) – ([^<(]+?)\s*[<(→]", html)
    return leaders, [name.strip() for name in final[-1]] if final else []


@pytest.mark.database  # its server's database is DATABASE_URL's on the PostgreSQL leg
def test_a_correction_at_a_table_racing_the_knock_out_draw_never_contradicts_the_bracket(
    server,
):
    """Two groups of two, one team of each through to the final. The table of group A's game
    corrects its hand (the other team wins) at the moment the organiser draws the final: either
    the correction is in before the draw, which then seats its winner, or it is refused with a
    sentence; the final is always the two group tables' leaders."""
    from tests.factories import form_data, sample_inputs

    settings = {**SETTINGS, "group_size": "2", "advance": "1"}
    for attempt in range(ATTEMPTS):
        phone = Client(server.port)
        phone.get("/turnuva/yeni/")
        path = phone.post("/turnuva/yeni/", settings)[1]["location"]
        teams = "\n".join(f"T{n}: A{n}, B{n}" for n in range(1, 5))
        assert phone.post(path + "katilimcilar/", {"entries": teams})[0] == 302
        html = phone.get(path)[2].decode()
        version = re.search(r'name="version" value="(\d+)"', html).group(1)
        assert phone.post(path + "kura/", {"version": version})[0] == 302
        matches = re.findall(r'href="(/m/[^/"]+/)"', phone.get(path)[2].decode())
        assert len(matches) == 2
        for match in matches:  # side a wins each group game
            phone.get(match)
            saved = phone.post(match + "el/", form_data(sample_inputs(4, finisher=0), position=1))
            assert saved[0] in (302, 303), saved[0]
        html = phone.get(path)[2].decode()
        version = re.search(r'name="version" value="(\d+)"', html).group(1)
        table = same_phone(phone)
        b_wins = form_data(sample_inputs(4, finisher=1), version=1)

        corrected, drawn = at_once(
            partial(table.post, matches[0] + "el/1/duzelt/", b_wins),
            partial(phone.post, path + "kura/", {"version": version}),
        )

        assert drawn[0] == 302 and corrected[0] in (200, 302), (corrected[0], drawn[0])
        if corrected[0] == 200:
            assert "sonucu turnuvanın sonraki kurasında kullanıldı" in corrected[2].decode()
        leaders, final = group_tables_and_final(phone.get(path)[2].decode())
        assert len(leaders) == 2 and sorted(final) == sorted(leaders), (attempt, leaders, final)
