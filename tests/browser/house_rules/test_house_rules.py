"""House rules on a phone: build a preset, start a match with it, see the changed scores."""

import re

import pytest
from playwright.sync_api import expect

import scoring
from cetele.models import Hand, HousePreset, Match
from scoring import parameters
from scoring.labels import signed
from tests.browser.sheet import enter_hand, start_match, totals, wait_for_hand

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ali", "Ayşe", "Can", "Deniz"]
OKEY_HAND = {
    "finisher": 0,
    "okey_finish": True,
    "players": [
        {"opened": "series"},
        {"opened": "series", "remaining": 23},
        {"opened": "pairs", "remaining": 41},
        {"opened": "no"},
    ],
}


def test_build_a_house_preset_start_a_match_with_it_and_see_the_changed_scores(phone):
    page, console = phone

    # The rules page lists the built-ins; start a house preset from the standard table.
    page.goto("/")
    page.get_by_role("link", name="Kurallar", exact=True).click()
    page.wait_for_url("**/kurallar/")
    assert page.get_by_role("link", name="Çetele Standart").is_visible()
    page.get_by_role("link", name="Yeni ev kuralı yap").click()
    page.wait_for_url("**/kurallar/yeni/**")

    page.get_by_label("Adı:", exact=True).fill("Bizim masa")
    winner = page.get_by_label("Okeyle bitiş — Bitiren")
    winner.fill("-303")
    # The worked example follows as you type; the inputs are not re-rendered under your fingers.
    first_seat = page.locator("#rules-example [data-sample='1'] [data-seat='0']")
    expect(first_seat).to_have_text("−303")
    multiplier = page.get_by_label("Okeyle bitiş — Açan ×")
    multiplier.fill("3")
    burak = page.locator("#rules-example [data-sample='1'] [data-seat='1']")
    # Burak opened pairs with 23 and a fake okey (7): (23 + 7) × 2 × 3 + 101.
    expect(burak).to_have_text("281")
    assert first_seat.inner_text() == "−303" and burak.inner_text() == "281"
    assert winner.input_value() == "-303" and multiplier.input_value() == "3"

    # An invalid value is refused next to its field, and nothing is saved.
    page.get_by_label("Okeyle bitiş — Açamayan").fill("")
    page.get_by_role("button", name="Kaydet").click()
    page.wait_for_selector("text=Kaydedilmedi: işaretli alanları düzeltin.")
    assert HousePreset.objects.count() == 0
    assert page.locator("#id_r-finishes__okey__not_opened[aria-invalid='true']").count() == 1
    page.get_by_label("Okeyle bitiş — Açamayan").fill("404")
    page.get_by_role("button", name="Kaydet").click()

    # Saved: the edit page gives the share link and a way to start a match.
    page.wait_for_url(re.compile(r"/ev/[^/]+/duzenle/$"))
    house = HousePreset.objects.get()
    assert house.rules["finishes"]["okey"] == {
        "winner": -303,
        "opened_multiplier": 3,
        "not_opened": 404,
    }
    assert page.locator("#view-url").input_value().endswith(f"/ev/{house.view_token}/")
    page.get_by_role("link", name="Bu kurallarla maç başlat").click()

    # Starting a match: the house preset is chosen.
    page.wait_for_url(re.compile(r"/yeni/\?preset="))
    assert page.locator("#id_preset option:checked").inner_text() == "Bizim masa"
    for seat, name in enumerate(NAMES, start=1):
        page.fill(f"#id_name_{seat}", name)
    page.select_option("#id_planned_hands", "5")
    page.get_by_role("button", name="Maçı başlat").click()
    page.wait_for_url("**/m/*/")
    match = Match.objects.get()
    assert match.rules == house.rules

    # A hand with an okey finish, entered on the hand form: the sheet shows the new scores.
    enter_hand(page, NAMES, OKEY_HAND)
    wait_for_hand(page, 2)
    expected = scoring.score_json({"rules": house.rules, "hand": Hand.objects.get().inputs})
    assert expected["scores"][0] == -303
    assert expected["scores"][1] == 23 * 3
    assert totals(page) == [signed(score) for score in expected["scores"]]

    # The match's rules, in full, with nothing marked: it plays its preset unchanged.
    page.locator("nav.actions").get_by_role("link", name="Kurallar", exact=True).click()
    page.wait_for_url("**/kurallar/")
    assert "−303" in page.locator("tr[data-kind='okey']").inner_text()
    assert page.locator("mark.diff").count() == 0

    # The phone remembers the preset: the rules page lists it, with its edit link.
    page.goto("/kurallar/")
    mine = page.locator("[data-my-presets]")
    assert mine.is_visible()
    assert mine.get_by_role("link", name="Bizim masa").get_attribute("href") == (
        f"/ev/{house.view_token}/"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    # ...and offers it first when starting the next match.
    page.goto("/yeni/")
    recent = page.locator("#id_preset optgroup").first
    assert recent.get_attribute("label") == "Bu telefonda son kullanılanlar"
    assert recent.locator("option").first.inner_text() == "Bizim masa"
    assert page.locator("#id_preset option:checked").inner_text() == "Bizim masa"
    # Not in silence: the top of the page names the rules it will start with, and the built-in
    # standard is one tap away.
    chosen = page.locator("[data-chosen-rules]")
    assert chosen.bounding_box()["y"] < page.locator("#id_name_1").bounding_box()["y"]
    expect(chosen).to_contain_text("Başlayacak maç: Bizim masa")
    chosen.get_by_role("button", name="Standart kurallara dön").click()
    expect(chosen).to_contain_text("Başlayacak maç: Çetele Standart")
    expect(chosen.get_by_role("button", name="Standart kurallara dön")).to_be_hidden()
    assert page.locator("#id_preset").input_value() == "cetele-standart"
    assert console.errors == []


def test_adjust_a_preset_for_one_match_and_see_the_differences_marked(phone):
    page, console = phone
    page.goto("/yeni/")
    for seat, name in enumerate(NAMES, start=1):
        page.fill(f"#id_name_{seat}", name)
    page.select_option("#id_preset", "om-klasik")

    page.get_by_role("button", name="Kuralları bu maç için değiştir").click()
    page.wait_for_selector("h1:text('Bu maçın kuralları')")
    page.get_by_label("Okeyle bitiş — Bitiren").fill("-303")
    page.get_by_role("button", name="Bu kurallarla maçı başlat").click()
    page.wait_for_url("**/m/*/")

    match = Match.objects.get()
    assert [p.name for p in match.players.all()] == NAMES
    assert match.rules["finishes"]["okey"]["winner"] == -303
    assert match.base_rules == scoring.resolve_rules("om-klasik")
    page.locator("nav.actions").get_by_role("link", name="Kurallar", exact=True).click()
    page.wait_for_url("**/kurallar/")
    assert page.locator("mark.diff").filter(has_text="−303").count() == 1
    assert console.errors == []


# --- Every parameter round-trips through the editor -------------------------------------------

# A value for every declared parameter that differs from cetele-standart (the editor's starting
# point) and from the parameter's default: the house rules on, every switch flipped.
EVERYTHING_CHANGED = {
    "name": "Her şey farklı",
    "finishes": {
        "normal": {"winner": -111, "opened_multiplier": 2, "not_opened": 211, "opened_flat": 300},
        "kafa": {"winner": -212, "opened_multiplier": 3, "not_opened": 412, "opened_flat": 808},
        "pairs": {"winner": -213, "opened_multiplier": 4, "not_opened": 413, "opened_flat": 302},
        "okey": {"winner": -214, "opened_multiplier": 5, "not_opened": 414, "opened_flat": 303},
        "okey_kafa": {
            "winner": -415,
            "opened_multiplier": 6,
            "not_opened": 815,
            "opened_flat": 304,
        },
        "pairs_okey": {
            "winner": -416,
            "opened_multiplier": 7,
            "not_opened": 816,
            "opened_flat": 305,
        },
        "pairs_kafa": {
            "winner": -417,
            "opened_multiplier": 8,
            "not_opened": 817,
            "opened_flat": 306,
        },
        "pairs_okey_kafa": {
            "winner": -818,
            "opened_multiplier": 9,
            "not_opened": 1618,
            "opened_flat": 307,
        },
        "none": {"opened_multiplier": 2, "not_opened": 219},
    },
    "kafa_requires_nobody_opened": True,
    "pair_opener_multiplier": 3,
    "pair_opener_over": {"threshold": 90, "penalty": 150},
    "okey_left": {"counts": 50, "penalty": 75, "fake_too": False},
    "teams": {"winner_partner_zero": False, "kafa_halving": False},
    "cezali": False,
    "penalties": {
        "okey_discard": 55,
        "islek_discard": 66,
        "islek_taken_factor": 7,
        "take_back": 44,
        "failed_open": 33,
        "okey_taken": 22,
        "side_take_unused": 11,
        "okey_from_per_unused": 99,
        "okey_taken_partner_exempt": False,
    },
    "discard_used": {"series": 5, "pairs": 6, "okey_series": 7, "okey_pairs": 8},
    "cifte_devam_factor": 3,
    "opening_bonus": [
        {"series": 150, "pairs": 5, "points": -50},
        {"series": 170, "pairs": 6, "points": -150},
        {"series": 190, "pairs": 7, "points": -250},
    ],
    "opening": {"series": 111, "pairs": 4, "raising": "both"},
    "tiles_dealt": 14,
    "hands": [3, 7],
    "riziko": {"multiplier": 3},
    "colours": {"multipliers": {"red": 2, "blue": 3, "black": 4, "yellow": 5}, "scope": "all"},
    "last_hand_multiplier": 7,
}


def field_id(*path) -> str:
    return "#id_r-" + "__".join(str(part) for part in path)


def set_every_parameter(page, rules: dict) -> None:
    """Type, tick and choose every declared parameter's value, as a player would."""
    for item in parameters.DECLARATION:
        value = parameters.value_at(rules, item.path)
        parts = item.path.split(".")
        if isinstance(item, parameters.Group):
            page.locator(field_id(*parts, "on")).set_checked(value is not None)
        elif item.type == parameters.BOOL:
            page.locator(field_id(*parts)).set_checked(value)
        elif item.type == parameters.CHOICE:
            page.locator(f"input[name='r-{'__'.join(parts)}'][value='{value}']").check()
        elif item.type == parameters.COUNTS:
            page.locator(f"input[name='r-{'__'.join(parts)}_mode'][value='fixed']").check()
            page.locator(field_id(*parts)).fill(str(value))
        elif item.type == parameters.LENGTHS:
            for box in page.locator(f"input[name='r-{'__'.join(parts)}']").all():
                box.set_checked(int(box.get_attribute("value")) in value)
        elif item.type == parameters.TIERS:
            for row, tier in enumerate(value):
                for column, number in tier.items():
                    page.locator(field_id(*parts, row, column)).fill(str(number))
        else:
            page.locator(field_id(*parts)).fill(str(value))


def test_the_editor_round_trips_every_parameter(phone):
    page, console = phone
    standart = scoring.resolve_rules("cetele-standart")
    # The test means what it says: every parameter is changed from where the editor starts.
    for item in parameters.PARAMS.values():
        if not item.path.startswith("finishes.pairs_"):  # rows that are off in the standard
            assert parameters.value_at(EVERYTHING_CHANGED, item.path) != parameters.value_at(
                standart, item.path, None
            ), item.path

    page.goto("/kurallar/yeni/?from=cetele-standart")
    set_every_parameter(page, EVERYTHING_CHANGED)
    page.get_by_role("button", name="Kaydet").click()
    page.wait_for_url(re.compile(r"/ev/[^/]+/duzenle/$"))

    house = HousePreset.objects.get()
    assert house.rules == EVERYTHING_CHANGED
    # Opening the editor again shows every value as saved: saving again changes nothing.
    page.get_by_role("button", name="Kaydet").click()
    page.wait_for_url(re.compile(r"/ev/[^/]+/duzenle/$"))
    house.refresh_from_db()
    assert house.rules == EVERYTHING_CHANGED

    # The rules page shows every value, each marked as changed from the standard table.
    page.goto(f"/ev/{house.view_token}/")
    rows = page.locator("tr[data-kind]")
    assert [row.get_attribute("data-kind") for row in rows.all()] == list(parameters.FINISH_ORDER)
    okey_kafa = page.locator("tr[data-kind='pairs_okey_kafa'] td").all_inner_texts()
    assert [cell.removesuffix("(değişti)").strip() for cell in okey_kafa] == [
        "−818",
        "×9",
        "1618",
        "307",
    ]
    shown = {element.get_attribute("data-rule"): element for element in page.locator("dd").all()}
    expected = {
        "pair_opener_over": "toplam 90'ı geçerse üstüne +150",
        "okey_left.counts": "50",
        "cezali": "Hayır",
        "opening_bonus": "150 puan ya da 5 çift: −50; 170 puan ya da 6 çift: −150; "
        "190 puan ya da 7 çift: −250",
        "opening.raising": "Seri ve çift",
        "hands": "3, 7 el",
        "riziko": "gösterge sahte okeyse bitiş tablosu × 3",
        "colours": "kırmızı × 2, mavi × 3, siyah × 4, sarı/yeşil × 5 (elin bütün puanı çarpılır)",
        "last_hand_multiplier": "7",
        "discard_used": "taş × 5 (seride), × 6 (çiftte); okey × 7 / × 8",
    }
    for path, text in expected.items():
        assert shown[path].locator("mark.diff").inner_text().startswith(text), path
    for item in parameters.PARAMS.values():  # every other parameter: its value, marked
        if (
            parameters.group_of(item.path)
            or item.path.startswith("finishes.")
            or item.path == "name"
        ):
            continue
        value = parameters.show(item, parameters.value_at(EVERYTHING_CHANGED, item.path), "tr")
        assert shown[item.path].locator("mark.diff").inner_text().startswith(value), item.path
    # Typing seventy fields at machine speed makes hx-sync="this:replace" abort the previews
    # still in flight (the latest draft wins): the watcher leaves those out. Nothing else.
    assert console.errors == []


# --- Playing a match with the house rules ----------------------------------------------------

RIZIKO_AND_COLOURS = {
    "riziko": {"multiplier": 2},
    "colours": {"multipliers": {"red": 5, "blue": 4, "black": 3, "yellow": 2}, "scope": "finish"},
    "last_hand_multiplier": 10,
}
HANDS = [
    {  # riziko and blue: the finish table × 8
        "finisher": 0,
        "riziko": True,
        "colour": "blue",
        "players": [
            {"opened": "series"},
            {"opened": "series", "remaining": 20},
            {"opened": "no"},
            {"opened": "series", "remaining": 9},
        ],
    },
    {  # red: × 5
        "finisher": 1,
        "colour": "red",
        "players": [
            {"opened": "series", "remaining": 10},
            {"opened": "series"},
            {"opened": "no"},
            {"opened": "no"},
        ],
    },
    {  # the match's last hand: riziko and black (× 6), then every score × 10
        "finisher": 2,
        "riziko": True,
        "colour": "black",
        "players": [
            {"opened": "no"},
            {"opened": "series", "remaining": 5},
            {"opened": "series"},
            {"opened": "no"},
        ],
    },
]
# Worked by hand from RULES.md (cetele-standart's normal row: −101 / ×1 / 202).
EXPECTED_SCORES = [
    [-808, 160, 1616, 72],
    [50, -505, 1010, 1010],
    [12120, 300, -6060, 12120],
]


def test_a_match_with_riziko_and_colours_scores_as_the_engine_does(phone):
    page, console = phone
    rules = scoring.resolve_rules({"preset": "cetele-standart", "override": RIZIKO_AND_COLOURS})
    house = HousePreset.objects.create(
        name="Riziko masası", base_slug="cetele-standart", rules=rules
    )

    page.goto(f"/ev/{house.view_token}/")  # this phone remembers the preset
    assert (
        "gösterge sahte okeyse bitiş tablosu × 2"
        in page.locator("[data-rule='riziko']").inner_text()
    )
    start_match(page, NAMES, preset=house.choice_value, hands=3)
    match = Match.objects.get()
    assert match.rules == rules

    for number, inputs in enumerate(HANDS, start=1):
        if number == len(HANDS):  # the sheet knows which hand is last and says so
            expect(page.locator("#entry-title")).to_contain_text("Son el: ×10")
        else:
            expect(page.locator("#entry-title")).not_to_contain_text("Son el")
        enter_hand(page, NAMES, inputs)
        expect(page.locator("#sheet tbody tr")).to_have_count(number)

    stored = [hand.inputs for hand in Hand.objects.filter(match=match).order_by("number")]
    engine = [scoring.score_json({"rules": rules, "hand": inputs}) for inputs in stored]
    assert [result["scores"] for result in engine] == EXPECTED_SCORES
    assert [hand.get("riziko", False) for hand in stored] == [True, False, True]
    assert [hand["colour"] for hand in stored] == ["blue", "red", "black"]
    assert [hand.get("last_hand", False) for hand in stored] == [False, False, True]
    assert totals(page) == [signed(sum(column)) for column in zip(*EXPECTED_SCORES, strict=True)]
    # The hand's breakdown names each multiplication.
    page.goto(f"/m/{match.edit_token}/el/3/")
    assert "−101 (normal bitiş) × 2 (riziko) × 3 (siyah) × 10 (son el) = −6060" in page.content()
    assert console.errors == []


def test_a_field_the_phone_moves_to_is_never_behind_the_example_panel(browser, live_server):
    """The editor's examples stay at the bottom of a 320×640 screen while the rules are typed; a
    field the keyboard's "next" (Tab) moves to is scrolled above them, not left behind them."""
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": 320, "height": 640}, is_mobile=True
    )
    page = context.new_page()
    try:
        page.goto("/kurallar/yeni/")
        page.locator("form input[type=number]").first.focus()
        seen = 0
        for _ in range(40):
            page.keyboard.press("Tab")
            boxes = page.evaluate(
                """() => {
                  const field = document.activeElement;
                  if (!field.matches("input:not([type=hidden]), select")) return null;
                  const panel = document.querySelector(".example-panel");
                  return [field.name, field.getBoundingClientRect().bottom,
                          panel.getBoundingClientRect().top];
                }"""
            )
            if boxes is None:
                continue
            name, bottom, panel_top = boxes
            assert bottom <= panel_top, f"{name} is behind the example panel"
            seen += 1
        assert seen >= 30
    finally:
        context.close()
