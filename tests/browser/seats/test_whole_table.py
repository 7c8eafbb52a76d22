"""The bar of "Each player writes their own rack": a whole 11-hand team match with four phones,
one scorer and three players who joined from the share page's "Masaya katıl". The players write
their own rows; the scorer taps who finished and "Eli kaydet" (and types their own rack, as each
player does). Every score and total on the sheet is checked against `scoring.score_json`, and the
scorer's taps per hand and the time until a phone's row shows on the scorer's form are printed
(`pytest -s`)."""

import statistics

import pytest
from playwright.sync_api import expect

import scoring
from cetele.models import Match
from scoring.labels import signed
from tests.browser.sheet import Taps, start_match, totals, wait_for_hand

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ali", "Ayşe", "Can", "Deniz"]  # Ali keeps the sheet; Ali & Can against Ayşe & Deniz
PRESET = "om-klasik"  # an okey left costs 101, counted 0: no hand asks for the okey's number
# ms: a page asks for the rows every 4 s (cetele.live.schedule, sooner in the tests), then for
# the sheet: room for a loaded machine
LIVE = 18_000

# Each hand as the table plays it: every seat's row (the three phones' as their players write
# them, Ali's as the scorer types it), in short: "-" the finisher, "N" Açmadı, "S20" Seri with
# 20 left, "P18" Çift with 18, "k1" one okey left, "S=13+12" a sum counted on the phone's keypad
# ("Taşları say"). None as the finisher: "Kimse bitmedi".
HANDS = [
    (0, ["-", "S=10+12+13", "S12", "N"]),
    (1, ["S20", "-", "P18", "S40k1"]),
    (2, ["N", "S=13+12", "-", "P30"]),
    (3, ["S9", "N", "S44", "-"]),
    (0, ["-", "P50", "N", "S7k1"]),
    (1, ["S28", "-", "S31", "S=5+7"], "okey finish"),
    (1, ["S15", "-", "S22", "S33"]),
    (0, ["-", "S61", "S5", "N"]),
    (None, ["N", "S20", "S30", "P10"]),
    (2, ["S11", "S19k1", "-", "N"]),
    (3, ["N", "S14", "P26", "-"]),
]
UNUSUAL = {6}  # "Okeyle bitti" is one more tap: not a normal hand
KINDS = {"S": "series", "P": "pairs", "N": "no"}


def row_of(text: str) -> dict:
    """ "S=13+12k1" → {"opened": "series", "tiles": (13, 12), "okeys": 1}, and so on."""
    if text == "-":
        return {}
    row = {"opened": KINDS[text[0]]}
    rest, _, okeys = text[1:].partition("k")
    if okeys:
        row["okeys"] = int(okeys)
    if rest.startswith("="):
        row["tiles"] = tuple(int(tile) for tile in rest[1:].split("+"))
    elif rest:
        row["remaining"] = int(rest)
    return row


def row_words(row: dict) -> str:
    """A row as the rows' list above the scorer's form says it: "Seri · 20 · 1 okey"."""
    words = [{"series": "Seri", "pairs": "Çift", "no": "Açmadı"}[row["opened"]]]
    remaining = sum(row["tiles"]) if "tiles" in row else row.get("remaining")
    if remaining is not None:
        words.append(str(remaining))
    if row.get("okeys"):
        words.append(f"{row['okeys']} okey")
    return " · ".join(words)


def hand_of(finisher, rows, *unusual) -> dict:
    return {
        "finisher": finisher,
        "okey_finish": "okey finish" in unusual,
        "rows": [row_of(text) for text in rows],
    }


def engine_inputs(hand: dict) -> dict:
    """The hand as `scoring.score_json` takes it."""
    players = []
    for seat, row in enumerate(hand["rows"]):
        if seat == hand["finisher"]:
            players.append({"opened": "series"})
            continue
        entry = {"opened": row["opened"]}
        if hand["finisher"] is not None and (hand["finisher"] + 2) % 4 == seat:
            players.append(entry)  # the finisher's partner writes 0: no sum, no okeys
            continue
        remaining = sum(row["tiles"]) if "tiles" in row else row.get("remaining")
        if remaining is not None:
            entry["remaining"] = remaining
        if row.get("okeys"):
            entry["okeys"] = row["okeys"]
        players.append(entry)
    return {
        "finisher": hand["finisher"],
        "okey_finish": bool(hand.get("okey_finish")),
        "kafa": False,
        "players": players,
    }


def join_from_the_share_page(scorer, phones: dict) -> None:
    scorer.get_by_role("link", name="Paylaş").click()
    expect(scorer.get_by_role("heading", name="Masaya katıl")).to_be_visible()
    join_url = scorer.locator("#join-url").input_value()
    for name, page in phones.items():
        page.goto(join_url)
        page.locator(".seat-choices label", has_text=name).click()
        page.get_by_role("button", name="Bu benim").click()
        expect(page.get_by_text(f"Bu telefonda {name} olarak yazıyorsunuz")).to_be_visible()
    scorer.go_back()


def phone_writes(page, row: dict, *, finished: bool) -> None:
    """A player writes their row on their phone (each change is sent as it is made)."""
    form = page.locator("#my-row")
    if finished:
        form.locator(".finish").click()
    else:
        form.locator(f".opened-{row['opened']}").click()
        if "tiles" in row:
            form.get_by_role("button", name="Taşları say").click()
            dialog = page.locator("[data-tile-counter]")
            for tile in row["tiles"]:
                dialog.locator(f'[data-tile="{tile}"]').click()
            dialog.get_by_role("button", name="Tamam").click()
        elif row.get("remaining") is not None:
            page.fill("#id_row-remaining", str(row["remaining"]))
        if row.get("okeys"):
            group = form.locator("[aria-labelledby='own-okeys-label']")
            group.get_by_text(str(row["okeys"]), exact=True).click()
    form.get_by_role("button", name="Gönder").click()
    expect(form.locator("#row-status")).to_contain_text("Satırınız gönderildi", timeout=LIVE)
    page.wait_for_load_state("networkidle")  # the last change is sent too


# Records, on a joined phone, when the server first had its row for each hand's place (ms).
WATCH_SENT = """() => {
  window.__sentAt = {};
  document.addEventListener("htmx:afterRequest", (event) => {
    const config = event.detail.requestConfig;
    const ok = event.detail.xhr.status === 200;
    if (!config || !config.elt.matches("form[data-own-row]") || !ok) return;
    const place = config.formData.get("position");
    if (!(place in window.__sentAt)) window.__sentAt[place] = Date.now();
  });
}"""


# Records, on the scorer's page, when each player's row first shows as written on its hand's
# form (ms), by "hand's place:seat".
WATCH_ROWS = """() => {
  window.__writtenAt = {};
  new MutationObserver(() => {
    const box = document.getElementById("table-rows");
    if (!box) return;
    box.querySelectorAll("li.written").forEach((li) => {
      const key = box.dataset.position + ":" + li.dataset.seat;
      if (!(key in window.__writtenAt)) window.__writtenAt[key] = Date.now();
    });
  }).observe(document.body, { childList: true, subtree: true });
}"""


def scorer_enters(scorer, hand: dict) -> tuple[int, int]:
    """The scorer's taps: (for the table: who finished, anything only they say, "Eli kaydet";
    for their own rack, which the scorer writes as each player does)."""
    table, own = Taps(scorer), Taps(scorer)
    level = scorer.locator("#hand-form .hand-level")
    row = hand["rows"][0]
    if hand["finisher"] is None:
        table.click(level.get_by_text("Kimse bitmedi"))
    elif hand["finisher"] == 0:
        table.click(scorer.locator("#seat-0 .finish"))
    if hand.get("okey_finish"):
        table.click(level.get_by_text("Okeyle bitti"))
    if hand["finisher"] not in (0, 2):  # Ali's partner Can finished: Ali writes 0
        if row.get("remaining") is not None:
            own.fill("#id_p0-remaining", str(row["remaining"]))  # a sum marks "Seri" itself
        if row["opened"] == "pairs":
            own.click(scorer.locator("#seat-0 .opened-pairs"))
    table.click(scorer.get_by_role("button", name="Eli kaydet"))
    return table.count, own.count


def expect_phone_rows_on_the_form(scorer, hand: dict) -> None:
    """What the phones wrote is in the scorer's form before the scorer taps anything."""
    phones_seats = (1, 2, 3)
    for seat in phones_seats:
        row = hand["rows"][seat]
        if seat == hand["finisher"]:
            expect(scorer.locator(f"#seat-{seat} .finish input")).to_be_checked()
            continue
        remaining = sum(row["tiles"]) if "tiles" in row else row.get("remaining")
        # The page has the row as last sent, every part of it (the opening, the sum, the okeys
        # are sent one change at a time): a save drawn before it would be refused and shown it
        # (cetele.seats.arrivals), even where the finisher's partner writes 0 and the form
        # keeps none of the row's sum or okeys. The list above the form shows the whole row.
        written = scorer.locator(f"#table-rows li[data-seat='{seat}']")
        expect(written).to_contain_text(row_words(row), timeout=LIVE)
        finisher = hand["finisher"]
        if finisher in phones_seats and (finisher + 2) % 4 == seat:
            # The phone said who finished: their partner writes 0, their rack is not counted
            # (the scorer's own tap on "Bitirdi" clears it the same way, app.js).
            remaining = None
        sum_field = scorer.locator(f"#id_p{seat}-remaining")
        expect(sum_field).to_have_value("" if remaining is None else str(remaining))
        checked = scorer.locator(f"#seat-{seat} input[name='p{seat}-opened']:checked")
        expect(checked).to_have_value(row["opened"])
        if remaining is not None and row.get("okeys"):
            # The okeys left are sent after the sum (a change of their own): wait for them too,
            # or the scorer's save may be faster than the rows' next poll.
            okeys = scorer.locator(f"#seat-{seat} input[name='p{seat}-okeys']:checked")
            expect(okeys).to_have_value(str(row["okeys"]), timeout=LIVE)


@pytest.mark.races
def test_a_whole_eleven_hand_team_match_with_three_joined_phones(
    phone, second_phone, third_phone, fourth_phone
):
    scorer, scorer_console = phone
    start_match(scorer, NAMES, preset=PRESET, hands=11, teams=True)
    match = Match.objects.get()
    assert match.teams and match.preset_slug == PRESET
    phones = {1: second_phone[0], 2: third_phone[0], 3: fourth_phone[0]}
    join_from_the_share_page(scorer, {NAMES[seat]: page for seat, page in phones.items()})
    scorer.reload()  # the scorer's page learns who has joined
    scorer.evaluate(WATCH_ROWS)
    for page in phones.values():
        page.evaluate(WATCH_SENT)

    taps, delays = [], []
    hands = [hand_of(*hand) for hand in HANDS]
    for number, hand in enumerate(hands, start=1):
        wait_for_hand(scorer, number)
        for seat, page in phones.items():
            expect(page.locator("#my-row-title")).to_have_text(
                f"{number}. el: satırınız", timeout=LIVE
            )
            phone_writes(page, hand["rows"][seat], finished=hand["finisher"] == seat)
        expect(scorer.locator("#table-rows li.written")).to_have_count(3, timeout=LIVE)
        expect_phone_rows_on_the_form(scorer, hand)
        seen = scorer.evaluate("window.__writtenAt")
        for seat, page in phones.items():
            sent = page.evaluate("window.__sentAt")[str(number)]
            delays.append(seen[f"{number}:{seat}"] - sent)
        taps.append(scorer_enters(scorer, hand))
    scorer.wait_for_selector("#entry-title:text('Maç bitti')")
    expect(scorer.locator("table.sheet tbody tr")).to_have_count(11)

    table_taps = [table for table, _own in taps]
    all_taps = [table + own for table, own in taps]
    normal = [count for number, count in enumerate(all_taps, start=1) if number not in UNUSUAL]
    print(
        f"\nscorer's taps per hand, 11-hand team match, three joined phones: {all_taps}"
        f" (for the table {table_taps}, for the scorer's own rack {[o for _t, o in taps]});"
        f" normal hands min {min(normal)}, median {statistics.median(normal)},"
        f" max {max(normal)}; hand 6 (okey finish) {all_taps[5]}"
    )
    print(
        f"a phone's row on the scorer's form after the server first had it (ms): median"
        f" {statistics.median(delays):.0f}, min {min(delays)}, max {max(delays)}, n={len(delays)}"
    )

    # Every hand's scores and the totals, as the sheet shows them, are the engine's.
    expected_totals = [0, 0, 0, 0]
    lines = scorer.locator("table.sheet tbody tr")
    for index, hand in enumerate(hands):
        request = {"rules": match.rules, "teams": True, "hand": engine_inputs(hand)}
        scores = scoring.score_json(request)["scores"]
        cells = lines.nth(index).locator("td").all_inner_texts()
        team = [scores[0] + scores[2], scores[1] + scores[3]]
        assert cells == [signed(s) for s in scores + team], (index + 1, cells, scores)
        expected_totals = [a + b for a, b in zip(expected_totals, scores, strict=True)]
    team_totals = [expected_totals[0] + expected_totals[2], expected_totals[1] + expected_totals[3]]
    assert totals(scorer) == [signed(t) for t in expected_totals + team_totals]

    assert all(count <= 2 for count in normal), all_taps
    assert not scorer_console.errors
    for _page, console in (second_phone, third_phone, fourth_phone):
        assert not console.errors
