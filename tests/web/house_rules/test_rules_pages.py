"""The rules pages: every built-in preset in full, and the marking of what differs from a base."""

import html
import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

import scoring
from cetele.house_rules.rulesets import differences
from cetele.models import HousePreset
from scoring import parameters
from tests.factories import make_match

pytestmark = pytest.mark.django_db

ROW = re.compile(r'<tr data-kind="(\w+)">(.*?)</tr>', re.S)
CELL = re.compile(r"<td>(.*?)</td>", re.S)
TAG = re.compile(r"<[^>]+>")


def text(fragment: str) -> str:
    return html.unescape(TAG.sub("", fragment)).strip()


def finish_table(page: str) -> dict[str, list[str]]:
    """{kind: [winner, multiplier, not opened]} as the page shows them (marks removed)."""
    rows = {}
    for kind, row in ROW.findall(page):
        cells = [text(cell).removesuffix("(değişti)").strip() for cell in CELL.findall(row)]
        rows[kind] = cells
    return rows


def shown(number: int) -> str:
    return f"−{-number}" if number < 0 else str(number)


def rule_values(page: str) -> dict[str, str]:
    """{path: value as shown} of the page's rule list (marks and help removed)."""
    found = re.findall(
        r'<dd data-rule="([\w.]+)">(.*?)(?:<span class="helptext">.*?)?</dd>', page, re.S
    )
    return {path: text(value).removesuffix("(değişti)").strip() for path, value in found}


def expected_table(rules: dict) -> dict[str, list[str]]:
    return {
        kind: [
            "—" if row.get("winner") is None else shown(row["winner"]),
            f"×{row['opened_multiplier']}",
            str(row["not_opened"]),
        ]
        for kind, row in rules["finishes"].items()
    }


def test_the_rules_page_lists_every_builtin_with_its_turkish_name_and_description(client):
    response = client.get(reverse("house_rules:rules_list"))

    page = html.unescape(response.content.decode())
    assert response.status_code == 200
    for slug, preset in scoring.PRESETS.items():
        assert f'href="/kurallar/{slug}/"' in page
        assert preset.name_tr in page
        assert preset.description_tr in page
    assert 'href="/kurallar/yeni/"' in page
    # This phone's house presets come from its own localStorage, never from the server.
    assert "data-my-presets" in page


def test_the_rules_page_never_lists_house_presets(client):
    HousePreset.objects.create(
        name="Başkasının masası", base_slug="om-klasik", rules=scoring.PRESETS["om-klasik"].rules
    )

    page = client.get(reverse("house_rules:rules_list")).content.decode()

    assert "Başkasının masası" not in page
    assert "/ev/" not in page


def test_the_rules_page_is_in_english_too(client):
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})

    page = html.unescape(client.get(reverse("house_rules:rules_list")).content.decode())

    assert scoring.PRESETS["om-zorlu"].name_en in page


@pytest.mark.parametrize("slug", list(scoring.PRESETS))
def test_every_builtin_shows_its_full_rules(client, slug, django_assert_num_queries):
    preset = scoring.PRESETS[slug]
    rules = preset.rules

    with django_assert_num_queries(0):
        response = client.get(reverse("house_rules:rules_detail", args=[slug]))

    page = html.unescape(response.content.decode())
    assert response.status_code == 200
    assert preset.name_tr in page and preset.description_tr in page
    assert finish_table(page) == expected_table(rules)
    for heading in ("Bitişler", "Kafa", "Çift açan", "Elde kalan okey", "Eşli oyun", "Cezalar",
                    "Açılış", "Taş ve maç", "Ev kuralları"):  # fmt: skip
        assert f">{heading}</h2>" in page
    values = rule_values(page)
    assert values["pair_opener_multiplier"] == str(rules["pair_opener_multiplier"])
    assert values["hands"] == ", ".join(str(n) for n in rules["hands"]) + " el"
    assert values["opening.series"] == str(rules["opening"]["series"])
    assert values["tiles_dealt"] == str(rules["tiles_dealt"])
    assert values["cezali"] == "Evet"
    for path in ("riziko", "colours", "last_hand_multiplier"):  # every house rule is off
        assert values[path] == "yok"
    for tier in rules["opening_bonus"] or []:
        assert f"{tier['series']} puan ya da {tier['pairs']} çift: {shown(tier['points'])}" in page
    assert "(değişti)" not in page  # a built-in has nothing to differ from
    assert f'href="/yeni/?preset={slug}"' in page
    assert f'href="/kurallar/yeni/?from={slug}"' in page


@pytest.mark.parametrize(
    ("slug", "expected"),
    [
        ("cetele-standart", {"pair_opener_over": "toplam 100'ü geçerse üstüne +101",
                             "okey_left.counts": "Üstündeki sayı kadar",
                             "okey_left.fake_too": "Evet",
                             "kafa_requires_nobody_opened": "Hayır",
                             "teams.kafa_halving": "Evet",
                             "penalties.islek_taken_factor": "10",
                             "penalties.take_back": "yok",
                             "penalties.okey_taken_partner_exempt": "Evet",
                             "finishes.pairs_kafa": "Hayır"}),
        ("om-klasik", {"okey_left.counts": "0", "kafa_requires_nobody_opened": "Evet",
                       "pair_opener_over": "yok"}),
        ("om-zorlu", {"discard_used": "taş × 10 (seride), × 20 (çiftte); okey × 20 / × 40",
                      "cifte_devam_factor": "2", "opening.raising": "Seri ve çift"}),
        ("om-51", {"tiles_dealt": "14", "opening.series": "51", "opening.pairs": "4",
                   "opening.raising": "Yalnızca seri"}),
        ("kafadinle", {"okey_left.counts": "101", "okey_left.penalty": "0",
                       "hands": "1, 5, 7, 9, 11 el"}),
    ],
)  # fmt: skip
def test_each_rule_is_spelled_out(client, slug, expected):
    page = client.get(reverse("house_rules:rules_detail", args=[slug])).content.decode()

    values = rule_values(page)
    assert {path: values[path] for path in expected} == expected


def test_every_declared_parameter_is_on_the_rules_page(client):
    """A parameter appears on the rules page by being declared: its label, or its group's."""
    page = html.unescape(
        client.get(reverse("house_rules:rules_detail", args=["om-zorlu"])).content.decode()
    )

    for item in parameters.DECLARATION:
        if item.path == "name":
            continue
        group = parameters.group_of(item.path)
        shown_as = group or item
        if item.path.startswith("finishes.") and isinstance(item, parameters.Param):
            continue  # a cell of the finish table, checked above
        assert f"<dt>{shown_as.text('label', 'tr')}</dt>" in page, item.path


def test_the_pair_limit_is_written_with_the_right_suffix(client):
    match = make_match(preset="cetele-standart")
    match.rules = scoring.deep_merge(match.rules, {"pair_opener_over": {"threshold": 50}})
    match.save()

    page = html.unescape(
        client.get(reverse("matches:match_rules", args=[match.edit_token])).content.decode()
    )

    assert "toplam 50'yi geçerse üstüne +101" in page  # not "50'ü"


def test_the_house_rules_read_in_full_when_on(client):
    match = make_match(preset="cetele-standart")
    match.rules = scoring.resolve_rules(
        {
            "preset": "cetele-standart",
            "override": {
                "riziko": {"multiplier": 2},
                "colours": {
                    "multipliers": {"red": 5, "blue": 4, "black": 3, "yellow": 2},
                    "scope": "all",
                },
                "last_hand_multiplier": 10,
            },
        }
    )
    match.save()

    page = client.get(reverse("matches:match_rules", args=[match.edit_token])).content.decode()

    values = rule_values(page)
    assert values["riziko"] == "gösterge sahte okeyse bitiş tablosu × 2"
    assert values["colours"] == (
        "kırmızı × 5, mavi × 4, siyah × 3, sarı/yeşil × 2 (elin bütün puanı çarpılır)"
    )
    assert values["last_hand_multiplier"] == "10"
    assert page.count("(değişti)") == 3


def test_an_unknown_preset_is_404(client):
    assert client.get("/kurallar/no-such-preset/").status_code == 404


# --- Marking differences ---------------------------------------------------------------------


def test_differences_name_exactly_the_values_that_differ():
    base = scoring.PRESETS["om-klasik"].rules
    rules = scoring.deep_merge(
        base, {"finishes": {"okey": {"winner": -303}}, "hands": [3], "riziko": {"multiplier": 2}}
    )

    assert differences(rules, base) == {"finishes.okey.winner", "hands", "riziko"}
    assert differences(rules, None) == frozenset()


def test_a_ruleset_stored_before_the_house_rules_differs_from_nothing_for_lacking_them():
    stored = scoring.PRESETS["om-klasik"].rules  # no riziko, colours, last_hand_multiplier keys

    assert differences(scoring.resolve_rules(stored), stored) == frozenset()
    assert differences(stored, scoring.resolve_rules(stored)) == frozenset()


def test_the_match_rules_page_marks_what_differs_from_the_preset(client):
    match = make_match(preset="cetele-standart")
    match.rules = scoring.deep_merge(
        match.rules,
        {"finishes": {"okey": {"winner": -303, "opened_multiplier": 3}}, "cezali": False},
    )
    match.save()

    page = client.get(reverse("matches:match_rules", args=[match.edit_token])).content.decode()

    assert page.count("(değişti)") == 3
    assert '<mark class="diff">−303<span class="visually-hidden"> (değişti)</span></mark>' in page
    assert '<mark class="diff">×3<span class="visually-hidden"> (değişti)</span></mark>' in page
    assert rule_values(page)["cezali"] == "Hayır"
    assert "kurallarından başladı" in page
    okey_row = finish_table(page)["okey"]
    assert okey_row == ["−303", "×3", "404"]


def test_the_finish_table_keeps_the_rules_order_whatever_the_database_did(client):
    match = make_match(preset="om-zorlu")
    match.refresh_from_db()  # PostgreSQL's jsonb hands the keys back sorted its own way

    page = client.get(reverse("matches:match_rules", args=[match.edit_token])).content.decode()

    kinds = [kind for kind, _ in ROW.findall(page)]
    assert kinds == ["normal", "kafa", "pairs", "okey", "okey_kafa", "pairs_okey", "none"]


def test_a_match_that_kept_its_preset_marks_nothing(client):
    match = make_match(preset="om-zorlu")

    page = client.get(reverse("matches:match_rules", args=[match.edit_token])).content.decode()

    assert "(değişti)" not in page
    assert "kurallarından başladı" not in page
    assert finish_table(page) == expected_table(scoring.PRESETS["om-zorlu"].rules)


def test_the_match_page_links_to_its_rules(client):
    match = make_match()

    page = client.get(reverse("matches:match_detail", args=[match.edit_token])).content.decode()

    assert f'href="/m/{match.edit_token}/kurallar/"' in page


def test_a_house_preset_page_marks_what_it_changed_from_its_builtin(
    client, django_assert_num_queries
):
    rules = scoring.deep_merge(
        scoring.PRESETS["geleneksel"].rules,
        {"name": "Bizim masa", "penalties": {"okey_discard": None}, "opening_bonus": None},
    )
    house = HousePreset.objects.create(name="Bizim masa", base_slug="geleneksel", rules=rules)

    with django_assert_num_queries(1):
        response = client.get(reverse("house_rules:house_detail", args=[house.view_token]))

    page = html.unescape(response.content.decode())
    assert "“Geleneksel 101” kurallarından yapıldı" in page
    # The name differs from the built-in's but is not a rule; the okey discard penalty is.
    assert page.count("(değişti)") == 1
    assert re.search(r'<dd data-rule="penalties.okey_discard"><mark class="diff">yok', page)
    assert house.edit_token not in page


def test_a_rules_page_speaks_english_from_the_same_declaration(client):
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})

    page = client.get(
        reverse("house_rules:rules_detail", args=["cetele-standart"])
    ).content.decode()

    values = rule_values(page)
    assert "<dt>Pair opener multiplier</dt>" in page
    assert values["pair_opener_over"] == "a total over 100 adds +101"
    assert values["okey_left.counts"] == "Its face value"
    assert values["cezali"] == "Yes"
    assert values["riziko"] == "none"
    assert values["hands"] == "1, 3, 5, 7, 9, 11, 13 hands"
    assert ">House rules</h2>" in page


# Turkish numbers spelled out in full, to check the suffix against every word, not a table.
ONES = ["", "bir", "iki", "üç", "dört", "beş", "altı", "yedi", "sekiz", "dokuz"]
TENS = ["", "on", "yirmi", "otuz", "kırk", "elli", "altmış", "yetmiş", "seksen", "doksan"]


def spelled(number: int) -> str:
    """ "yüz yirmi", "bin", "dokuz yüz doksan dokuz" (1 ≤ number ≤ 1000)."""
    if number == 1000:
        return "bin"
    hundreds, rest = divmod(number, 100)
    words = [(ONES[hundreds] + " yüz").strip() if hundreds > 1 else "yüz" * hundreds]
    words += [TENS[rest // 10], ONES[rest % 10]]
    return " ".join(word for word in words if word)


def accusative_by_ear(number: int) -> str:
    """The accusative suffix the spoken number takes: its last vowel decides, "y" after a vowel."""
    spoken = spelled(number)
    last = [letter for letter in spoken if letter in "aeıioöuü"][-1]
    vowel = {"a": "ı", "ı": "ı", "o": "u", "u": "u", "e": "i", "i": "i", "ö": "ü", "ü": "ü"}[last]
    return f"{number}'{'y' if spoken[-1] in 'aeıioöuü' else ''}{vowel}"


def test_the_spelling_the_suffix_test_relies_on():
    assert [spelled(n) for n in (3, 40, 100, 120, 250, 999, 1000)] == [
        "üç",
        "kırk",
        "yüz",
        "yüz yirmi",
        "iki yüz elli",
        "dokuz yüz doksan dokuz",
        "bin",
    ]


def test_the_pair_limit_takes_the_right_suffix_for_every_threshold_to_1000():
    """The rules page's "toplam N'… geçerse" for every threshold from 1 to 1000 (the part of the
    page that writes it, rendered as the page renders it), checked against the number spoken."""
    base = scoring.resolve_rules("cetele-standart")
    wrong = []
    for threshold in range(1, 1001):
        rules = scoring.deep_merge(base, {"pair_opener_over": {"threshold": threshold}})
        # Rendered outside a request: the page's language is Turkish here, whatever an earlier
        # request in this thread (an English page) left activated.
        with translation.override("tr"):
            page = html.unescape(
                render_to_string("cetele/house_rules/_rules.html", {"rules": rules})
            )

        expected = f"toplam {accusative_by_ear(threshold)} geçerse üstüne +101"
        if rule_values(page)["pair_opener_over"] != expected:
            wrong.append((threshold, rule_values(page)["pair_opener_over"]))

    assert wrong == []


@pytest.mark.parametrize(
    ("threshold", "written"),
    [(50, "50'yi"), (80, "80'i"), (120, "120'yi"), (100, "100'ü"), (3, "3'ü"), (6, "6'yı"),
     (9, "9'u"), (10, "10'u"), (40, "40'ı"), (1000, "1000'i"), (1100, "1100'ü")],
)  # fmt: skip
def test_the_rules_page_writes_these_suffixes(client, threshold, written):
    match = make_match(preset="cetele-standart")
    match.rules = scoring.deep_merge(match.rules, {"pair_opener_over": {"threshold": threshold}})
    match.save()

    page = client.get(reverse("matches:match_rules", args=[match.edit_token])).content.decode()

    assert rule_values(html.unescape(page))["pair_opener_over"] == (
        f"toplam {written} geçerse üstüne +101"
    )
