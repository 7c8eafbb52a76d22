"""At the table, on a 390×844 phone: a hand in one screen and a few taps, and none of the silent
mistakes a score sheet must never make (issue "At the table")."""

import re
import statistics

import pytest
from playwright.sync_api import expect

import scoring
from cetele.models import Hand, HousePreset, Match
from scoring.labels import signed
from tests.browser.sheet import enter_hand, sheet_shows, start_match, totals, wait_for_hand

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ali", "Burak", "Can", "Deniz"]


def engine_totals(match: Match) -> list[int]:
    columns = [0] * match.players.count()
    for hand in Hand.objects.filter(match=match).order_by("number"):
        request = {"rules": match.rules, "teams": match.teams, "hand": hand.inputs}
        columns = [
            a + b for a, b in zip(columns, scoring.score_json(request)["scores"], strict=True)
        ]
    return columns


TYPICAL_HANDS = {
    "normal": {
        "finisher": 0,
        "players": [
            {"opened": "series"},
            {"opened": "series", "remaining": 34},
            {"opened": "series", "remaining": 12},
            {"opened": "series", "remaining": 51},
        ],
    },
    "okey finish": {
        "finisher": 1,
        "okey_finish": True,
        "players": [
            {"opened": "series", "remaining": 20},
            {"opened": "series"},
            {"opened": "series", "remaining": 8},
            {"opened": "series", "remaining": 17},
        ],
    },
    "a pairs opener": {
        "finisher": 2,
        "players": [
            {"opened": "series", "remaining": 20},
            {"opened": "pairs", "remaining": 44},
            {"opened": "series"},
            {"opened": "series", "remaining": 9},
        ],
    },
    "a non-opener": {
        "finisher": 3,
        "players": [
            {"opened": "series", "remaining": 20},
            {"opened": "no"},
            {"opened": "series", "remaining": 30},
            {"opened": "series"},
        ],
    },
    "one penalty": {
        "finisher": 0,
        "players": [
            {"opened": "series"},
            {"opened": "series", "remaining": 15},
            {
                "opened": "series",
                "remaining": 25,
                "penalties": [{"kind": "okey_discard"}],
            },
            {"opened": "series", "remaining": 5},
        ],
    },
}


def test_a_hand_fits_one_screen_and_a_normal_hand_takes_five_taps(phone):
    page, console = phone
    start_match(page, NAMES, hands=7)

    form = page.locator("#hand-form")
    top = page.locator("#entry-title").bounding_box()["y"]
    save = page.get_by_role("button", name="Eli kaydet").bounding_box()
    height = save["y"] + save["height"] - top
    print(f"\nhand form, title to the bottom of 'Eli kaydet': {height:.0f} px (4 players)")
    assert height <= 844
    assert form.locator("details.more[open]").count() == 0

    taps = {}
    for number, (kind, inputs) in enumerate(TYPICAL_HANDS.items(), start=1):
        taps[kind] = enter_hand(page, NAMES, inputs)
        wait_for_hand(page, number + 1)
    print("taps per hand, digits aside: " + ", ".join(f"{k} {n}" for k, n in taps.items()))
    assert taps["normal"] <= 5
    assert taps["okey finish"] <= 6
    assert taps["a non-opener"] <= 4
    match = Match.objects.get()
    assert totals(page) == [signed(total) for total in engine_totals(match)]
    assert console.errors == []


def test_a_saved_hand_is_confirmed_with_undo_and_its_row_marked(phone):
    page, console = phone
    start_match(page, NAMES)

    enter_hand(page, NAMES, TYPICAL_HANDS["normal"])

    note = page.locator("#saved-note")
    expect(note).to_contain_text("1. el kaydedildi.")
    expect(note.get_by_role("button", name="Geri al")).to_be_visible()
    expect(page.locator("table.sheet tbody tr.just-saved")).to_have_count(1)
    wait_for_hand(page, 2)
    # The next hand's form is ready and in view, at its first row.
    assert page.locator("#seat-0").is_visible()
    assert page.locator("#seat-0").bounding_box()["y"] < 844

    note.get_by_role("button", name="Geri al").click()
    wait_for_hand(page, 1)
    assert Hand.objects.count() == 0
    assert console.errors == []


def test_the_pages_own_geri_al_names_the_hand_this_phone_has_just_saved(phone):
    """The bar under the page says "Geri al" for the latest change as the page was drawn; a save
    made since from this very phone (no page load) must not leave it naming the hand before,
    whose undo the server refuses as if another phone had saved since."""
    page, console = phone
    start_match(page, NAMES)
    enter_hand(page, NAMES, TYPICAL_HANDS["normal"])
    wait_for_hand(page, 2)
    page.reload()  # the bar now names the first hand
    enter_hand(page, NAMES, TYPICAL_HANDS["normal"])
    wait_for_hand(page, 3)

    page.locator("nav.actions").get_by_role("button", name="Geri al: 2. el eklendi").click()

    expect(page.get_by_text("başka bir telefondan")).to_have_count(0)
    wait_for_hand(page, 2)
    assert Hand.objects.count() == 1
    assert console.errors == []


def test_typing_a_sum_marks_the_player_as_opened(phone):
    page, _ = phone
    start_match(page, NAMES)
    row = page.locator("#seat-1")
    assert row.locator("input[value='no']").is_checked()

    page.click("#id_p1-remaining")
    page.keyboard.type("34")

    assert row.locator("input[value='series']").is_checked()
    row.locator(".opened-pairs").click()  # still free to say it was pairs
    assert row.locator("input[value='pairs']").is_checked()
    page.locator("#seat-0 .finish").click()
    page.get_by_role("button", name="Eli kaydet").click()
    wait_for_hand(page, 2)
    assert Hand.objects.get().inputs["players"][1] == {
        "opened": "pairs",
        "remaining": 34,
        "okeys": 0,
        "fake_okeys": 0,
        "penalties": [],
    }


def test_each_change_asks_for_one_preview_never_twice_the_same(phone):
    """Typing a sum asks for the preview once it pauses; leaving the field sends "change" with
    the same fields, which the answer already shows: not asked again. A tap that changes
    something is asked at once, as before."""
    page, console = phone
    start_match(page, NAMES)
    asked: list[str] = []
    page.on(
        "request",
        lambda r: (
            asked.append(r.post_data or "")
            if r.headers.get("hx-target") == "hand-preview"
            else None
        ),
    )

    answered = 800  # ms: the 300-ms pause after typing, then the preview's answer
    page.locator("#seat-0 .finish").click()
    page.wait_for_timeout(answered)
    for seat, remaining in ((1, "34"), (2, "12")):
        page.click(f"#id_p{seat}-remaining")  # for seat 2: leaves seat 1's field, its "change"
        page.keyboard.type(remaining)
        page.wait_for_timeout(answered)
    page.locator("#seat-3 .opened-series").click()  # leaves seat 2's field: its "change"
    page.wait_for_timeout(answered)

    assert len(asked) == 4, asked  # the finisher, two sums, the tap on "Seri"
    assert len(set(asked)) == len(asked)
    assert console.errors == []


def test_an_empty_sum_is_an_error_that_names_the_player_never_a_zero(phone):
    page, _ = phone
    start_match(page, NAMES)
    page.locator("#seat-0 .finish").click()
    page.locator("#seat-1 .opened-series").click()  # Burak opened; the sum box left empty

    page.get_by_role("button", name="Eli kaydet").click()

    expect(page.locator("#seat-1")).to_contain_text("Burak: elinde kalan taşların toplamını yazın.")
    assert Hand.objects.count() == 0


def test_the_finishers_row_collapses_to_bitirdi(phone):
    page, _ = phone
    start_match(page, NAMES)
    row = page.locator("#seat-2")

    row.locator(".finish").click()

    expect(row.locator(".finished-note")).to_be_visible()
    expect(row.locator(".sum input")).to_be_hidden()
    expect(row.locator(".opened-no")).to_be_hidden()
    row.locator("details.more summary").click()
    expect(row.locator(".okey-counts")).to_be_hidden()


def test_counting_tiles_fills_the_sum_and_the_okeys(phone):
    page, console = phone
    start_match(page, NAMES)
    row = page.locator("#seat-1")

    row.get_by_role("button", name="Taşları say").click()
    dialog = page.locator("dialog[data-tile-counter]")
    expect(dialog).to_be_visible()
    for tile in ("5", "7", "13"):
        dialog.locator(f"[data-tile='{tile}']").click()
    dialog.locator("[data-tile='okey']").click()
    dialog.locator("[data-count-undo]").click()  # take back the last tile
    dialog.locator("[data-tile='fake']").click()
    expect(dialog.locator("[data-count-status]")).to_contain_text("4 taş · toplam 25")
    dialog.get_by_role("button", name="Tamam").click()

    expect(dialog).to_be_hidden()
    assert page.input_value("#id_p1-remaining") == "25"
    assert row.locator("input[name='p1-fake_okeys'][value='1']").is_checked()
    assert row.locator("input[name='p1-okeys'][value='0']").is_checked()
    assert row.locator("input[value='series']").is_checked()
    assert console.errors == []


def test_the_preview_never_covers_the_input_being_typed_at_320_px(browser, live_server):
    context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": 320, "height": 640},
        is_mobile=True,
        has_touch=True,
    )
    page = context.new_page()
    try:
        start_match(page, NAMES)
        page.locator("#seat-0 .finish").click()
        for seat in (1, 2, 3):
            page.click(f"#id_p{seat}-remaining")
            # Measured once the preview of this seat's whole sum is in: the previous seat's was
            # still there (with its details) when the swap came, and a box measured mid-swap is
            # None; so was one measured after the "1"'s answer, before the "12"'s (CI).
            typed = f"p{seat}-remaining=12&"
            with page.expect_response(
                lambda r, typed=typed: (
                    r.request.method == "POST"
                    and "/el/" in r.url
                    and typed in (r.request.post_data or "") + "&"
                )
            ):
                page.keyboard.type("12")
            page.wait_for_selector("#hand-preview details")
            expect(page.locator(".htmx-swapping, .htmx-settling")).to_have_count(0)
            field = page.locator(f"#id_p{seat}-remaining").bounding_box()
            preview = page.locator("#hand-preview").bounding_box()
            assert field["y"] + field["height"] <= preview["y"], f"seat {seat} is covered"
        assert page.evaluate("document.documentElement.scrollWidth") <= 320
        page.goto(page.url + "gecmis/")
        assert page.evaluate("document.documentElement.scrollWidth") <= 320
    finally:
        context.close()


@pytest.mark.races
def test_two_phones_entering_the_same_hand_are_told_and_can_add_it_deliberately(
    phone, second_phone
):
    first, _ = phone
    second, _ = second_phone
    start_match(first, NAMES)
    second.goto(first.url)

    enter_hand(first, NAMES, TYPICAL_HANDS["normal"])
    wait_for_hand(first, 2)
    enter_hand(second, NAMES, TYPICAL_HANDS["okey finish"])

    expect(second.locator("#hand-form")).to_contain_text(
        "1. el az önce başka bir telefondan kaydedildi"
    )
    expect(second.locator(".taken")).to_contain_text("Normal bitiş")
    assert Hand.objects.count() == 1
    second.get_by_role("button", name="Benimkini 2. el olarak ekle").click()
    wait_for_hand(second, 3)
    assert Hand.objects.count() == 2


def test_a_house_preset_link_starts_exactly_that_preset_whatever_the_order(phone):
    page, console = phone
    rules = scoring.resolve_rules("om-klasik")
    ours = HousePreset.objects.create(
        name="Bizim masa", rules=rules | {"name": "Bizim masa"}, base_slug="om-klasik"
    )
    theirs = HousePreset.objects.create(
        name="Komşu masa", rules=rules | {"name": "Komşu masa"}, base_slug="om-klasik"
    )
    # This phone has used both lately, "Komşu masa" last: its recent list comes first.
    page.goto(f"/ev/{ours.view_token}/")
    page.goto(f"/ev/{theirs.view_token}/")
    page.goto(f"/ev/{ours.view_token}/")

    page.get_by_role("link", name="Bu kurallarla maç başlat").click()
    page.wait_for_url(re.compile(r"/yeni/\?preset="))
    expect(page.locator("[data-chosen-name]")).to_have_text("Bizim masa")
    for seat, name in enumerate(NAMES, start=1):
        page.fill(f"#id_name_{seat}", name)
    page.get_by_role("button", name="Maçı başlat").click()
    page.wait_for_url("**/m/*/")

    assert Match.objects.get().preset_slug == ours.choice_value
    assert console.errors == []


def test_player_names_are_placeholders_and_two_players_may_not_share_a_name(phone):
    page, _ = phone
    page.goto("/yeni/")
    assert page.input_value("#id_name_1") == ""
    page.click("#id_name_1")
    page.keyboard.type("Ayşe")
    assert page.input_value("#id_name_1") == "Ayşe"
    page.fill("#id_name_2", "ayşe")
    page.fill("#id_name_3", "")
    page.fill("#id_name_4", "")

    page.get_by_role("button", name="Maçı başlat").click()

    expect(page.locator("form.match-create")).to_contain_text("Bu ad başka bir oyuncuda da var")
    assert Match.objects.count() == 0


ELEVEN_HANDS = [
    {  # normal
        "finisher": 0,
        "players": [
            {"opened": "series"},
            {"opened": "series", "remaining": 34},
            {"opened": "series"},  # the finisher's partner writes 0
            {"opened": "no"},
        ],
    },
    {  # okey finish, an okey left (its number asked)
        "finisher": 1,
        "okey_finish": True,
        "okey_number": 7,
        "players": [
            {"opened": "series", "remaining": 20, "okeys": 1},
            {"opened": "series"},
            {"opened": "no"},
            {"opened": "series"},
        ],
    },
    {  # a pairs finish
        "finisher": 2,
        "players": [
            {"opened": "series"},
            {"opened": "pairs", "remaining": 30},
            {"opened": "pairs"},
            {"opened": "no"},
        ],
    },
    {  # kafa: partners of a kafa finisher's opponents
        "finisher": 3,
        "kafa": True,
        "players": [
            {"opened": "no"},
            {"opened": "series"},
            {"opened": "series", "remaining": 22},
            {"opened": "series"},
        ],
    },
    {  # okey-kafa
        "finisher": 0,
        "okey_finish": True,
        "kafa": True,
        "players": [
            {"opened": "series"},
            {"opened": "no"},
            {"opened": "no"},
            {"opened": "series", "remaining": 14},
        ],
    },
    {  # pairs + okey
        "finisher": 1,
        "okey_finish": True,
        "players": [
            {"opened": "series", "remaining": 9},
            {"opened": "pairs"},
            {"opened": "pairs", "remaining": 111},
            {"opened": "no"},
        ],
    },
    {  # nobody finished
        "finisher": None,
        "players": [
            {"opened": "series", "remaining": 60},
            {"opened": "no"},
            {"opened": "pairs", "remaining": 40},
            {"opened": "no"},
        ],
    },
    {  # penalties: an işlek tile taken, an okey taken by the partner (exempt)
        "finisher": 2,
        "players": [
            {"opened": "series"},
            {
                "opened": "series",
                "remaining": 27,
                "penalties": [{"kind": "islek_discard", "taken": True, "tile": 9}],
            },
            {"opened": "series"},
            {"opened": "series", "remaining": 3, "penalties": [{"kind": "okey_taken", "by": 1}]},
        ],
    },
    {  # a fake okey left, a custom penalty
        "finisher": 3,
        "okey_number": 11,
        "players": [
            {"opened": "series", "remaining": 16, "fake_okeys": 1},
            {"opened": "no", "penalties": [{"kind": "custom", "points": 50}]},
            {"opened": "series", "remaining": 0},
            {"opened": "series"},
        ],
    },
    {  # everyone but the finisher a non-opener
        "finisher": 0,
        "players": [{"opened": "series"}, {"opened": "no"}, {"opened": "no"}, {"opened": "no"}],
    },
    {  # normal again, the last hand
        "finisher": 1,
        "players": [
            {"opened": "series", "remaining": 7},
            {"opened": "series"},
            {"opened": "series", "remaining": 29},
            {"opened": "pairs"},
        ],
    },
]


def test_an_eleven_hand_team_match_through_the_new_form(phone):
    page, console = phone
    start_match(page, NAMES, hands=11, teams=True)
    match = Match.objects.get()
    assert match.teams

    taps = []
    for number, inputs in enumerate(ELEVEN_HANDS, start=1):
        taps.append(enter_hand(page, NAMES, inputs))
        if number < len(ELEVEN_HANDS):
            wait_for_hand(page, number + 1)
    page.wait_for_selector("#entry-title:text('Maç bitti')")
    sheet_shows(page, 11)

    print(f"\n11-hand team match: taps per hand {taps}, median {statistics.median(taps)}")
    assert Hand.objects.count() == 11
    expected = engine_totals(match)
    shown = totals(page)
    assert shown[:4] == [signed(total) for total in expected]
    assert shown[4:] == [signed(expected[0] + expected[2]), signed(expected[1] + expected[3])]
    stored = [h.inputs for h in Hand.objects.filter(match=match).order_by("number")]
    for inputs, typed in zip(stored, ELEVEN_HANDS, strict=True):
        assert inputs["finisher"] == typed["finisher"]
        for seat, entry in enumerate(typed["players"]):
            assert inputs["players"][seat].get("remaining") == entry.get("remaining")
    assert console.errors == []


def test_without_javascript_the_form_still_saves_and_never_drops_a_typed_sum(browser, live_server):
    context = browser.new_context(
        base_url=live_server.url, java_script_enabled=False, viewport={"width": 390, "height": 844}
    )
    page = context.new_page()
    try:
        start_match(page, NAMES)
        page.locator("#seat-0 .finish").click()
        page.fill("#id_p1-remaining", "34")  # no script to mark "Seri": the server must ask
        page.get_by_role("button", name="Eli kaydet").click()
        expect(page.locator("#seat-1")).to_contain_text("Burak açmadı ama toplam yazılı")
        assert Hand.objects.count() == 0

        page.locator("#seat-1 .opened-series").click()
        page.get_by_role("button", name="Eli kaydet").click()
        page.wait_for_selector("#entry-title:text('2. el')")
        assert Hand.objects.get().inputs["players"][1]["remaining"] == 34
        assert page.locator("[data-count-tiles]").first.is_hidden()
    finally:
        context.close()
