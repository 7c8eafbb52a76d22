"""The rules pages: every built-in preset in full, and the marking of what differs from a base."""

import html
import re

import pytest
from django.urls import reverse

import scoring
from cetele.models import HousePreset
from cetele.rulesets import changes
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


def expected_table(rules: dict) -> dict[str, list[str]]:
    return {
        kind: [
            "—" if row.get("winner") is None else str(row["winner"]),
            f"×{row['opened_multiplier']}",
            str(row["not_opened"]),
        ]
        for kind, row in rules["finishes"].items()
    }


def test_the_rules_page_lists_every_builtin_with_its_turkish_name_and_description(client):
    response = client.get(reverse("rules_list"))

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

    page = client.get(reverse("rules_list")).content.decode()

    assert "Başkasının masası" not in page
    assert "/ev/" not in page


def test_the_rules_page_is_in_english_too(client):
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})

    page = html.unescape(client.get(reverse("rules_list")).content.decode())

    assert scoring.PRESETS["om-zorlu"].name_en in page


@pytest.mark.parametrize("slug", list(scoring.PRESETS))
def test_every_builtin_shows_its_full_rules(client, slug, django_assert_num_queries):
    preset = scoring.PRESETS[slug]
    rules = preset.rules

    with django_assert_num_queries(0):
        response = client.get(reverse("rules_detail", args=[slug]))

    page = html.unescape(response.content.decode())
    assert response.status_code == 200
    assert preset.name_tr in page and preset.description_tr in page
    assert finish_table(page) == expected_table(rules)
    for heading in (
        "Kafa (elden)",
        "Çift açan",
        "Elde kalan okey",
        "Eşli oyun",
        "Cezalar",
        "Açış primi",
        "Açılış",
        "Maç uzunluğu",
    ):
        assert f"<dt>{heading}</dt>" in page
    assert f"Eldeki taşlar ×{rules['pair_opener_multiplier']}" in page
    assert ", ".join(str(n) for n in rules["hands"]) + " el" in page
    assert f"en az {rules['opening']['series']} puan" in page
    assert f"{rules['tiles_dealt']} taş dağıtılır" in page
    for tier in rules["opening_bonus"] or []:
        assert (
            f"{tier['series']} puanla ya da {tier['pairs']} çiftle açan: {tier['points']}" in page
        )
    assert "(değişti)" not in page  # a built-in has nothing to differ from
    assert f'href="/yeni/?preset={slug}"' in page
    assert f'href="/kurallar/yeni/?from={slug}"' in page


@pytest.mark.parametrize(
    ("slug", "phrases"),
    [
        ("cetele-standart", ["toplam 100'ü geçerse üstüne +101", "Üstündeki sayı kadar sayılır",
                             "sahte okey için de", "Başkaları açmış olsa da olur",
                             "kafada, eşi açmış olan açamayanın cezası yarıya iner",
                             "sonraki oyuncu aldıysa taş × 10", "eşi aldıysa ceza yok"]),
        ("om-klasik", ["0 sayılır", "Yalnızca başka kimse açmamışsa", "sınırı geçme cezası yok"]),
        ("om-zorlu", ["taş × 10 (seriye), × 20 (çifte); okey × 20 / × 40",
                      "Çifte devam deyip açamayan cezasını ×2 yazar",
                      "seri ve çift açılışlar bir öncekini geçmeli"]),
        ("om-51", ["14 taş dağıtılır", "en az 51 puan", "4 çift",
                   "seri açılışlar bir öncekini geçmeli"]),
        ("kafadinle", ["101 sayılır", "ayrıca ceza yok", "1, 5, 7, 9, 11 el"]),
    ],
)  # fmt: skip
def test_each_rule_is_spelled_out(client, slug, phrases):
    page = html.unescape(client.get(reverse("rules_detail", args=[slug])).content.decode())

    for phrase in phrases:
        assert phrase in page, phrase


def test_an_unknown_preset_is_404(client):
    assert client.get("/kurallar/no-such-preset/").status_code == 404


# --- Marking differences ---------------------------------------------------------------------


def test_changes_mark_exactly_the_values_that_differ():
    base = scoring.PRESETS["om-klasik"].rules
    rules = scoring.deep_merge(base, {"finishes": {"okey": {"winner": -303}}, "hands": [3]})

    tree = changes(rules, base)

    assert tree["finishes"]["okey"] == {
        "winner": True,
        "opened_multiplier": False,
        "not_opened": False,
    }
    assert tree["hands"] is True
    assert tree["cezali"] is False
    assert changes(rules, None)["finishes"]["okey"]["winner"] is False


def test_the_match_rules_page_marks_what_differs_from_the_preset(client):
    match = make_match(preset="cetele-standart")
    match.rules = scoring.deep_merge(
        match.rules,
        {"finishes": {"okey": {"winner": -303, "opened_multiplier": 3}}, "cezali": False},
    )
    match.save()

    page = client.get(reverse("match_rules", args=[match.edit_token])).content.decode()

    assert page.count("(değişti)") == 3
    assert '<mark class="diff">-303<span class="visually-hidden"> (değişti)</span></mark>' in page
    assert '<mark class="diff">×3<span class="visually-hidden"> (değişti)</span></mark>' in page
    assert "Cezasız masa" in page
    assert "kurallarından başladı" in page
    okey_row = finish_table(page)["okey"]
    assert okey_row == ["-303", "×3", "404"]


def test_the_finish_table_keeps_the_rules_order_whatever_the_database_did(client):
    match = make_match(preset="om-zorlu")
    match.refresh_from_db()  # PostgreSQL's jsonb hands the keys back sorted its own way

    page = client.get(reverse("match_rules", args=[match.edit_token])).content.decode()

    kinds = [kind for kind, _ in ROW.findall(page)]
    assert kinds == ["normal", "kafa", "pairs", "okey", "okey_kafa", "pairs_okey", "none"]


def test_a_match_that_kept_its_preset_marks_nothing(client):
    match = make_match(preset="om-zorlu")

    page = client.get(reverse("match_rules", args=[match.edit_token])).content.decode()

    assert "(değişti)" not in page
    assert "kurallarından başladı" not in page
    assert finish_table(page) == expected_table(scoring.PRESETS["om-zorlu"].rules)


def test_the_match_page_links_to_its_rules(client):
    match = make_match()

    page = client.get(reverse("match_detail", args=[match.edit_token])).content.decode()

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
        response = client.get(reverse("house_detail", args=[house.view_token]))

    page = html.unescape(response.content.decode())
    assert "“Geleneksel 101” kurallarından yapıldı" in page
    # The name differs from the built-in's but is not a rule; the okey discard penalty is.
    assert page.count("(değişti)") == 1
    assert "Okey atmak: <mark" in page
    assert house.edit_token not in page
