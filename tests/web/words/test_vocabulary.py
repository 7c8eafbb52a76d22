"""The app speaks the table's Turkish, and keeps to it: every string a player can read —
templates, the web app's and the engine's strings, the English catalogue (its Turkish msgids and
English msgstrs), and every engine message rendered as a page shows it — is scanned for the
variants `scoring.vocabulary.RETIRED` lists and for seat numbers where a name belongs.

The scan reads the files themselves, so a new template or message is covered without a test
change; the scanners are checked on planted strings so that a scan that finds nothing cannot
pass by reading nothing.
"""

import ast
import functools
import html
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

import scoring
from cetele.models import HousePreset
from cetele.tables.season import table_from_match
from scoring import messages, names, parameters, sentences, vocabulary
from scoring.errors import InvalidHand
from scoring.messages import ERRORS, human_field
from scoring.turkish import lower
from scoring.vocabulary import CONTRACT_WORDS, RETIRED, SEAT_NUMBER, retired_in
from tests.conftest import require_or_skip
from tests.factories import add_hand, form_data, make_match, sample_inputs

ROOT = Path(__file__).resolve().parents[3]
NAMES = ("Ayşe", "Burak", "Can", "Deniz")
GETTEXT = {"_", "gettext", "gettext_lazy", "ngettext", "ngettext_lazy", "pgettext", "pgettext_lazy"}
TURKISH_LETTERS = re.compile(r"[çğıöşüÇĞİÖŞÜ]")
IDENTIFIER = re.compile(r"^[A-Za-z0-9_.\[\]\-/:%{}()*+?^$\\|#]*$")  # codes, paths (a.html#partial)

# --- Collecting the strings -----------------------------------------------------------------

TEMPLATE_COMMENT = re.compile(r"{%\s*comment\s*%}.*?{%\s*endcomment\s*%}|{#.*?#}|<!--.*?-->", re.S)
TRANSLATE = re.compile(r"""{%\s*translate\s+(?:"([^"]*)"|'([^']*)')""")
BLOCKTRANSLATE = re.compile(r"{%\s*blocktranslate\b[^%]*%}(.*?){%\s*endblocktranslate\s*%}", re.S)
TAG = re.compile(r"{%.*?%}|{{.*?}}", re.S)
HTML_TAG = re.compile(r"<[^>]*>", re.S)
PLACEHOLDER_NAME = re.compile(r"(%\(|\{\{? ?)\w+(\)| ?\}?\})")


def template_strings(text: str) -> list[str]:
    """What a template shows: its translated strings and its plain text between tags."""
    text = TEMPLATE_COMMENT.sub(" ", text)
    found = [a or b for a, b in TRANSLATE.findall(text)]
    for body in BLOCKTRANSLATE.findall(text):
        found.extend(re.split(r"{%\s*plural\s*%}", body))
    plain = HTML_TAG.sub("\n", TAG.sub(" ", BLOCKTRANSLATE.sub(" ", text)))
    found.extend(line.strip() for line in plain.splitlines() if re.search(r"\w", line))
    return found


def python_strings(source: str) -> tuple[list[str], list[str]]:
    """(strings passed to gettext, every other string a reader might see): docstrings, codes,
    paths, regular expressions and developers' exceptions are left out."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    # A raise's text is for developers (ValueError, AssertionError): what a player reads goes
    # through gettext or InvalidHand's code.
    raised = {id(node) for r in ast.walk(tree) if isinstance(r, ast.Raise) for node in ast.walk(r)}
    translated, other = [], []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name in GETTEXT:
                translated.extend(
                    arg.value
                    for arg in node.args
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                )
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and id(node) not in raised
            and not IDENTIFIER.match(node.value)
            and "(?" not in node.value
        ):
            other.append(node.value)
    return translated, other


def catalogue_entries(text: str) -> list[tuple[str, str]]:
    """(msgid, msgstr) of each entry of a .po file, plurals included."""
    entries = []
    for block in text.split("\n\n"):
        lines = [line for line in block.splitlines() if not line.startswith("#")]
        fields: dict[str, str] = {}
        key = None
        for line in lines:
            head = re.match(r"^(msgid_plural|msgid|msgstr(?:\[\d\])?) (\".*\")$", line)
            if head:
                key = head[1]
                fields[key] = ast.literal_eval(head[2])
            elif line.startswith('"') and key:
                fields[key] += ast.literal_eval(line)
        if fields.get("msgid"):
            ids = [fields["msgid"], fields.get("msgid_plural", "")]
            strs = [value for name, value in fields.items() if name.startswith("msgstr")]
            entries.extend((i, s) for i in ids if i for s in strs)
    return entries


def files(folder: str, pattern: str) -> list[Path]:
    return sorted((ROOT / folder).rglob(pattern))


@functools.cache
def shown_strings() -> list[tuple[str, str, str]]:
    """(where, lang, text) of every string a page can show, from the source files."""
    found: list[tuple[str, str, str]] = []
    for path in files("templates", "*.html"):
        found += [(str(path), "tr", text) for text in template_strings(path.read_text())]
    for folder in ("cetele", "scoring"):
        for path in files(folder, "*.py"):
            if "migrations" in path.parts or path.name == "vocabulary.py":
                continue  # vocabulary.py lists the retired variants themselves
            translated, other = python_strings(path.read_text())
            found += [(f"{path} (gettext)", "tr", text) for text in translated]
            found += [(str(path), _lang(text), text) for text in other]
    po = ROOT / "locale/en/LC_MESSAGES/django.po"
    for msgid, msgstr in catalogue_entries(po.read_text()):
        found += [(f"{po} msgid", "tr", msgid), (f"{po} msgstr of {msgid!r}", "en", msgstr)]
    return found + engine_words()


def engine_words() -> list[tuple[str, str, str]]:
    """The engine's words as they are at run time — some are built from the vocabulary, not
    written out in the source: names, breakdown words, the ruleset's labels and help."""
    found = []
    for lang in ("tr", "en"):
        tables = [names.FINISH_NAMES, names.FINISH_REASONS, names.PENALTY_NAMES]
        tables += [names.COLOUR_NAMES, sentences._WORDS, messages.ERRORS, messages.PAGE_ERRORS]
        for table in tables:
            found += [("scoring (run time)", lang, text) for text in table[lang].values()]
        for item in parameters.DECLARATION:
            found += [
                ("scoring.parameters", lang, item.text(what, lang)) for what in ("label", "help")
            ]
        found += [
            ("scoring.vocabulary", lang, value[lang])
            for value in vars(vocabulary).values()
            if isinstance(value, vocabulary.Term)
        ]
    return found


def _lang(text: str) -> str:
    return "tr" if TURKISH_LETTERS.search(text) else "en"


# --- Every engine message, rendered ---------------------------------------------------------

# One sample per error code: (field, params), as the engine raises it.
SAMPLES = {
    "invalid_json": ("request", {"detail": "line 1"}),
    "wrong_type": ("hand.players[2].remaining", {"expected": "integer"}),
    "missing_field": ("hand.players[1].penalties[0].by", {}),
    "unknown_field": ("hand.players[0].colour", {}),
    "invalid_choice": ("rules.okey_left.counts", {"choices": ["“face”", "0–100000"]}),
    "out_of_range": ("rules.finishes.okey.winner", {"lo": -100000, "hi": 0}),
    "empty_value": ("rules.name", {}),
    "duplicate_value": ("rules.hands[2]", {"value": 5}),
    "unknown_preset": ("rules", {"slug": "x", "choices": ["cetele-standart"]}),
    "tiers_not_increasing": ("rules.opening_bonus[1]", {}),
    "seat_count": ("hand.players", {"n": 1}),
    "teams_need_four": ("teams", {"n": 3}),
    "finisher_not_a_seat": ("hand.finisher", {"n": 4}),
    "finisher_not_opened": ("hand.finisher", {"seat": 2}),
    "finisher_holds_tiles": ("hand.players[1].okeys", {}),
    "needs_finisher": ("hand.okey_finish", {"what": "okey_finish"}),
    "pairs_kafa_not_allowed": ("hand.kafa", {"seat": 1}),
    "kafa_others_opened": ("hand.kafa", {"other": 3}),
    "remaining_out_of_range": ("hand.players[3].remaining", {"max": 255, "tiles": 21}),
    "okeys_out_of_range": ("hand.players[0].fake_okeys", {"what": "fake_okey"}),
    "too_many_okeys": ("hand.players[2].okeys", {"what": "okey"}),
    "okey_number_out_of_range": ("hand.okey_number", {}),
    "okey_number_required": ("hand.okey_number", {"reason": ("fake_counted", 3)}),
    "cifte_devam_not_in_ruleset": ("hand.players[1].cifte_devam", {}),
    "cifte_devam_with_series": ("hand.players[1].cifte_devam", {}),
    "opening_below_base": ("hand.players[0].opening", {"base": 101, "unit": "points"}),
    "opening_above_max": ("hand.players[0].opening", {"max": 10, "tiles": 21}),
    "colour_required": ("hand.colour", {}),
    "pairs_okey_kafa_without_pairs_kafa": ("rules.finishes.pairs_okey_kafa", {}),
    "opening_not_opened": ("hand.players[2].opening", {}),
    "unknown_penalty_kind": ("hand.players[0].penalties[0].kind", {"kind": "x"}),
    "penalty_disabled": ("hand.players[0].penalties[0].kind", {"kind_label": "take_back"}),
    "penalty_not_on_cezasiz": ("hand.players[0].penalties[0].kind", {"kind_label": "okey_taken"}),
    "tile_out_of_range": ("hand.players[0].penalties[1].tile", {}),
    "tile_required": ("hand.players[3].penalties[0].tile", {}),
    "by_not_a_seat": ("hand.players[0].penalties[0].by", {"n": 4}),
    "by_self": ("hand.players[0].penalties[0].by", {}),
}
# Variants of the samples whose wording depends on the field or a parameter.
EXTRA_SAMPLES = [
    ("missing_field", "hand.players[1].penalties[0].used_for", {}),
    ("missing_field", "hand.finisher", {}),
    ("missing_field", "rules.opening_bonus[0].points", {}),
    ("wrong_type", "hand.finisher", {"expected": "seat_or_null"}),
    ("wrong_type", "hand.players[1].okey_finish", {"expected": "boolean"}),
    ("wrong_type", "rules", {"expected": "ruleset"}),
    ("wrong_type", "rules.finishes", {"expected": "object"}),
    ("needs_finisher", "hand.kafa", {"what": "kafa"}),
    *[
        ("okey_number_required", "hand.okey_number", {"reason": (reason, 2)})
        for reason in ("okey_counted", "okey_discard_used")
    ],
    ("unknown_field", "rules.override.nonsense", {}),
    ("out_of_range", "rules.hands[0]", {"lo": 1, "hi": None}),
]


def rendered_messages():
    """(error, lang, page text, contract text) for every sample."""
    samples = [(code, field, params) for code, (field, params) in SAMPLES.items()]
    for code, field, params in samples + EXTRA_SAMPLES:
        error = InvalidHand(code, field, params)
        for lang in ("tr", "en"):
            yield error, lang, error.page_message(lang, NAMES), error.message_in(lang)


def message_id(message) -> str:
    return f"{message[0].code}-{message[0].field}-{message[1]}"


# --- The tests ------------------------------------------------------------------------------


def test_the_samples_cover_every_error_code():
    assert SAMPLES.keys() == ERRORS["tr"].keys()


@pytest.mark.parametrize(
    "term",
    [value for value in vars(vocabulary).values() if isinstance(value, vocabulary.Term)],
    ids=lambda term: term.en,
)
def test_every_word_of_the_vocabulary_is_the_one_the_app_shows(term):
    """The vocabulary is the app's own: each word is on some page, in each language."""
    shown = [string for string in shown_strings() if string[0] != "scoring.vocabulary"]

    for lang in ("tr", "en"):
        word = lower(term[lang], lang)
        assert any(word in lower(text, lang) for _, in_lang, text in shown if in_lang == lang), (
            lang,
            term,
        )


def test_no_retired_variant_or_seat_number_in_any_string_a_page_shows():
    problems = []
    for where, lang, text in shown_strings():
        problems += [f"{where}: {text!r} — use {r.instead!r}" for r in retired_in(text, lang)]
        if _shows_seat_number(where, text):
            problems.append(f"{where}: {text!r} — name the player, not the seat")

    assert problems == []


def _shows_seat_number(where: str, text: str) -> bool:
    """Seat numbers are the contract's (scoring/fields.py keeps "oyuncu {n}" for the command
    line); anywhere else, and in any string a page shows, they are a mistake."""
    contract = where.endswith("scoring/fields.py") and text in ("oyuncu {n}", "player {n}")
    text = PLACEHOLDER_NAME.sub(r"\1x\2", text)  # "%(seat)s" is code, not a word a player reads
    return bool(SEAT_NUMBER.search(text)) and not contract


@pytest.mark.parametrize("message", list(rendered_messages()), ids=message_id)
def test_every_engine_message_speaks_the_tables_words(message):
    _error, lang, page, contract = message

    assert retired_in(page, lang) == [] and retired_in(contract, lang) == []
    assert not SEAT_NUMBER.search(page), page
    assert not CONTRACT_WORDS.search(page), page


@pytest.mark.parametrize("message", list(rendered_messages()), ids=message_id)
def test_a_page_message_about_a_player_names_the_player(message):
    error, _lang, page, _contract = message
    seats = {int(n) for n in re.findall(r"players\[(\d+)\]", error.field)}
    seats |= {error.params[key] - 1 for key in ("seat", "other") if key in error.params}
    if "reason" in error.params:
        seats.add(error.params["reason"][1] - 1)

    for seat in seats:
        assert NAMES[seat] in page, page


def test_a_page_names_the_players_with_the_right_suffix():
    error = InvalidHand("okey_number_required", "hand.okey_number", {"reason": ("fake_counted", 3)})

    assert error.page_message("tr", NAMES) == (
        "Okey kaç? Can'ın elinde sahte okey kaldı; göstergeyi seçin (okey onun bir üstüdür)."
    )
    assert error.page_message("tr", ("Ali", "Ayşe", "Oğuz")) == (
        "Okey kaç? Oğuz'un elinde sahte okey kaldı; göstergeyi seçin (okey onun bir üstüdür)."
    )
    assert error.message_in("tr") == (
        "Okey kaç? Oyuncu 3'ün elinde sahte okey kaldı; okey taşının sayısı girilmeli."
    )


def test_the_contract_keeps_seat_numbers_and_json_words():
    """The command line and score_json are unchanged: seats 1-based, types by their JSON names."""
    error = InvalidHand("wrong_type", "hand.players[1].okey_finish", {"expected": "boolean"})

    assert error.message_in("tr") == "Oyuncu 2, okeyle bitiş: true ya da false olmalı."
    assert error.page_message("tr", NAMES) == "Burak, okeyle bitiş: işaretleyin ya da boş bırakın."


def test_every_ruleset_path_has_words_on_a_page():
    paths = [*parameters.PARAMS, *parameters.GROUPS, "opening_bonus[2].points", "hands[1]"]

    for path in paths:
        for lang in ("tr", "en"):
            words = human_field(f"rules.{path}", lang, page=True)
            assert not CONTRACT_WORDS.search(words) and f"“{path}”" not in words, (path, words)


def test_every_turkish_string_has_its_english():
    """A new Turkish string without its English (or one gettext marked fuzzy, which Django never
    shows) would put Turkish on an English page."""
    text = (ROOT / "locale/en/LC_MESSAGES/django.po").read_text()

    assert [msgid for msgid, msgstr in catalogue_entries(text) if not msgstr] == []
    assert "#, fuzzy" not in text.split("\n\n", 1)[1]


# The names .gitignore lists, each as shutil.ignore_patterns matches it: within its folder.
GIT_IGNORED = [
    Path(line).name
    for line in (ROOT / ".gitignore").read_text().splitlines()
    if line and not line.startswith("#")
]


def test_refreshing_the_catalogue_keeps_every_english_string(tmp_path):
    """`make messages` on a copy of the checkout (xgettext reads the code): every string the
    code marks has its English already, and no English is lost. A string marked through a name
    xgettext does not know (`_lazy = gettext_lazy`) is missed by it, and the refresh drops its
    English: that page would then speak Turkish in English."""
    require_or_skip(shutil.which("xgettext") is not None, "xgettext (gettext)")
    copy = tmp_path / "checkout"
    # The checkout as git has it: what .gitignore lists (the virtualenv, caches other test legs
    # are writing to at this moment, databases, build output) is left out.
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".git", *GIT_IGNORED))
    # A string only this copy marks: the refresh must find it (it reads the code), without English.
    planted = "Yalnızca bu testin kopyasında yazılı"
    (copy / "cetele/planted.py").write_text(
        "from django.utils.translation import gettext_lazy\n\n"
        f"PLANTED = gettext_lazy({planted!r})\n"
    )
    po = "locale/en/LC_MESSAGES/django.po"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "cetele.settings", "DJANGO_SECRET_KEY": "x"}

    subprocess.run(
        ["make", "-s", "messages", f"BIN={Path(sys.executable).parent}"],
        cwd=copy,
        env=env,
        check=True,
        capture_output=True,
    )

    refreshed = catalogue_entries((copy / po).read_text())
    assert (planted, "") in refreshed
    refreshed.remove((planted, ""))
    assert sorted(refreshed) == sorted(catalogue_entries((ROOT / po).read_text()))


def test_english_agrees_in_number():
    one = InvalidHand("seat_count", "hand.players", {"n": 1}).message_in("en")
    five = InvalidHand("seat_count", "hand.players", {"n": 5}).message_in("en")

    assert one.endswith("; 1 was entered.") and five.endswith("; 5 were entered.")
    one_pair = InvalidHand(
        "opening_below_base", "hand.players[0].opening", {"base": 1, "unit": "pairs"}
    )
    assert one_pair.page_message("en", NAMES) == "Ayşe: the opening must be at least 1 pair."


# --- The scanners find what they look for ---------------------------------------------------


def test_the_template_scanner_reads_translated_and_plain_text():
    template = (
        '{% load i18n %}{% comment %}seat 2{% endcomment %}<p class="seat">Açış</p>'
        '{% translate "Kural takımı" %}{% blocktranslate with n=x %}Oyuncu {{ n }}'
        "{% endblocktranslate %}<span>{{ seat.name }} veya</span>"
    )

    shown = template_strings(template)

    assert shown == ["Kural takımı", "Oyuncu {{ n }}", "Açış", "veya"]


def test_the_python_scanner_reads_gettext_and_leaves_docstrings_and_codes():
    source = (
        '"""Maçı tutan kişi (a docstring)."""\n'
        'x = _("Açış primi")\n'
        'y = {"by_not_a_seat": "okeyi alındı"}\n'
        'z = re.compile(r"(?:a|b)?:")\n'
        'raise ValueError("a hand has 3 scores for 4 seats")\n'
    )

    translated, other = python_strings(source)

    assert translated == ["Açış primi"]
    assert other == ["Açış primi", "okeyi alındı"]


def test_the_catalogue_reader_pairs_msgids_with_msgstrs():
    po = '#, fuzzy\nmsgid ""\nmsgstr "header"\n\nmsgid "Kafa"\nmsgstr ""\n"Kafa (at once)"\n'

    assert catalogue_entries(po) == [("Kafa", "Kafa (at once)")]


@pytest.mark.parametrize(
    ("text", "lang", "caught"),
    [
        ("Açış primi", "tr", True),
        ("Açılış primi", "tr", False),
        ("Çiftten kafa yoktur: çift açan, açtığı elde bitemez", "tr", True),
        ("Çift açan elden bitemez", "tr", False),
        ("attığı taş çifte işlendi", "tr", True),
        ("İşlek taş attı", "tr", False),
        ("Kim aldı?:", "tr", True),
        ("Kafa (at once)", "en", True),
        ("not using it in that hand", "en", True),
        ("Score sheet", "en", True),
        ("Back to the score sheet", "en", False),
        ("A hand has 2, 3 or 4 players; 1 were entered.", "en", True),
        # Issue 29: each string it reported, and a fresh one of the same kind beside it.
        ("Kimse bitirmedi", "tr", True),
        ("Kimse bitmedi", "tr", False),
        ("101 Okey masanızın skorunu telefonda tutun", "tr", True),
        ("Skor mesajı", "tr", True),
        ("%(seat)s. koltuk", "tr", True),
        ("herkes bir koltuk kayar", "tr", True),
        ("herkes bir yer kayar", "tr", False),
        ("kuralları maç başlarken dondurulmuştur", "tr", True),
        ("Çetele okunmaya devam eder", "tr", True),
        ("Sunucu soruyor: bu el için kararınız gerekiyor", "tr", True),
        ("Bağlantı yok — son görülen durum", "tr", True),
        ("masanın maçlarını ve sayılarını gösterir", "tr", True),
        ("taşların sayılarının toplamı", "tr", False),
        ("açma durumu", "tr", True),
        ("Kural kaydedildi.", "tr", True),
        ("Kurallar kaydedildi.", "tr", False),
        ("okey yüzü kadar sayılır", "tr", True),
        ("okey / sahte okey kaldı", "tr", True),
        ("Okey-Kafa / Elden + okey", "tr", True),
        ("Elden + çift + okey", "tr", True),
        ("Pairs + kafa + okey", "en", True),
        ("Çiftten okey-kafa", "tr", False),
        ("3–1 (2=)", "tr", True),
        ("önde–geride bitirdiği maçlar (= berabere)", "tr", True),
        ("3–1 (2 berabere)", "tr", False),
        ("Okeyi bitiş taşı olmadan yere atmak.", "tr", True),
        ("her oyuncunun elin bütün puanını", "tr", True),
        ("her oyuncunun o eldeki bütün puanını", "tr", False),
        ("açamayan cezasını iki katı yazar", "tr", True),
        ("açamayan puanını dört katı yazar", "tr", True),
        ("açamayan cezasının iki katını yazar", "tr", False),
        ("Bu adresten kısa sürede çok sayıda geçersiz bağlantı açıldı.", "tr", True),
        ("Masa %(name)s: %(count)s maç bitti", "tr", True),
        ("Table %(name)s: %(count)s match finished", "en", True),
        ("Kafa için kimse açmamış olmalı", "tr", True),
        ("Kafa için başka kimse açmamış olmalı", "tr", False),
        ("Eşli (1. ve 3. oyuncu bir takım, 2. ve 4. oyuncu öteki)", "tr", True),
        ("Okeyler hariç sayıların toplamı", "tr", True),
        ("Aşağıdaki örnek el, siz değiştirdikçe", "tr", True),
        ("Masa kurarsanız oyuncuları masaya geçer", "tr", True),
        ("Bitiriş", "tr", True),
        ("attığın taşı sonraki oyuncu kullanırsa", "tr", True),
        ("bitirdiğin el", "tr", True),
        ("sana kalan", "tr", True),
        ("Kimin bitirdiğini seçin", "tr", False),
        ("açtığında", "tr", False),
        ("İlker wrote 898", "en", True),
        ("Winners write the same.", "en", True),
        ("their partner finished, so they write 0", "en", True),
        ("Write down your table's rules.", "en", False),
        ("Ayşe (1 time)", "en", True),
        ("Ayşe (once)", "en", False),
        ("going on: 3 / 5 hands", "en", True),
        ("hands: <span data-chosen-hands>5</span>", "en", True),
        ("every score and how it was made", "en", True),
        ("let their okey be taken", "en", True),
        ("21 tiles open at most 10 pairs", "en", True),
        ("with 21 tiles you can open at most 10 pairs", "en", False),
        ("First player", "en", True),
        ("Name %(number)s", "en", True),
        ("Place %(number)s", "en", False),
        ("Ç: pairs finish · O: okey finish · K: kafa", "en", True),
        ("choose “Runs” or “Pairs”", "en", True),
        ("a player who opened runs/sets", "en", False),
        # "Words a player trusts": one name a thing, and the café's words.
        ("Gizli puan", "tr", True),
        ("Gizli toplam", "tr", False),
        ("Turnuvayı aç", "tr", True),
        ("Turnuvayı kur", "tr", False),
        ("Bu telefon bu maçta bir yer almamış", "tr", True),
        ("Bu fiyat fazla büyük.", "tr", True),
        ("the scorer sees it", "en", True),
        ("the person keeping score", "en", True),
        ("the scorekeeper sees it", "en", False),
        ("Which hand could not be told.", "en", True),
        ("Averaj", "en", True),
    ],
)
def test_the_retired_list_catches_the_reported_variants(text, lang, caught):
    assert bool(retired_in(text, lang)) is caught


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_a_finish_name_is_a_name_without_its_explanation(lang):
    """ "Kafa", not "Kafa (opened and finished in the same turn)" or "Kafa / Elden": a name is
    used in headings, the chart and mid-sentence; what it means is help text."""
    assert [name for name in names.FINISH_NAMES[lang].values() if re.search(r"[()/]", name)] == []


def test_a_penalty_label_is_an_infinitive_like_its_neighbours():
    """ "Okey atmak", "Taş geri almak": a label that is a sentence ("Açılış tutmadı") stands out."""
    kinds = names.PENALTY_NAMES["tr"]
    labels = [texts[0][0] for kind, texts in parameters.PENALTY_TEXTS.items() if kind in kinds]
    assert len(labels) >= 6
    assert [label for label in labels if not re.search(r"m[ae]k$", label)] == []


@pytest.mark.parametrize(
    ("text", "caught"),
    [("-303", True), ("Ali -202", True), ("−303", False), ("2–4", False), ("Wi-Fi", False)],
)
def test_the_hyphen_pattern_catches_a_hyphen_for_a_minus(text, caught):
    assert bool(vocabulary.HYPHEN_MINUS.search(text)) is caught


def capital_after_comma(text: str, lang: str) -> list[str]:
    """Finish names written with their capital in mid-sentence: "1. el, Okeyle bitiş"."""
    shown = [name for kind, name in names.FINISH_NAMES[lang].items() if kind != "none"]
    return [name for name in shown if re.search(rf"[,(] ?{re.escape(name)}", text)]


def test_the_capital_check_catches_a_finish_name_mid_sentence():
    assert capital_after_comma("1. el, Okeyle bitiş (Ayşe)", "tr") == ["Okeyle bitiş"]
    assert capital_after_comma("1. el, okeyle bitiş (Ayşe)", "tr") == []
    assert capital_after_comma("Hand 1, Okey finish (Ayşe)", "en") == ["Okey finish"]


@pytest.mark.parametrize(
    ("text", "caught"),
    [
        ("Oyuncu 2: bu ceza için taşın sayısı girilmeli", True),
        ("oyuncu 2 açmış", True),
        ("Player 2: tiles left", True),
        ("Seat %(seat)s", True),
        ("Ayşe: okeyi kimin aldığını seçin.", False),
        ("2. oyuncu", False),
    ],
)
def test_the_seat_pattern_catches_seat_numbers(text, caught):
    assert bool(SEAT_NUMBER.search(text)) is caught


def test_every_retired_variant_is_a_valid_pattern():
    for retired in RETIRED:
        re.compile(retired.pattern)


# --- Pages as a player sees them ------------------------------------------------------------


def page_text(response) -> str:
    """The words of a page: its HTML without tags, scripts or attributes."""
    content = re.sub(r"<(script|style)\b.*?</\1>", " ", response.content.decode(), flags=re.S)
    return html.unescape(HTML_TAG.sub(" ", content))


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["tr", "en"])
def test_a_question_keeps_its_own_mark_on_every_form(client, lang):
    """ "Kim aldı?", "Nerede kullanıldı?", "Maç kaç el olabilir?" — labels and error lines never
    add a colon after a question mark, on the hand sheet or in the house-rule editor."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    match = make_match(preset="om-zorlu")
    penalties = [{"kind": "okey_taken"}, {"kind": "discard_used", "used_for": "pairs"}]
    inputs = {**sample_inputs(), "okey_number": None}
    inputs["players"][1]["penalties"] = penalties
    sheet = client.post(reverse("matches:hand_create", args=[match.edit_token]), form_data(inputs))
    editor = client.post(
        reverse("house_rules:preset_new"),
        {"action": "save", "r-name": "Bizim masa", "r-okey_left__counts_mode": "fixed"},
    )

    shown = [page_text(sheet), page_text(editor)]

    assert sheet.status_code == editor.status_code == 200
    assert all("?" in text for text in shown)  # the questions are there...
    assert [text for text in shown if re.search(r"\?\s*:", text)] == []  # ...without a colon
    assert [text for text in shown if CONTRACT_WORDS.search(text.replace("JSON indir", ""))] == []


def _pages_with_numbers(client) -> dict[str, str]:
    """The pages that print scores, totals, figures and finish names, as a player reads them:
    a finished match (sheet, standings, summary, chart), a hand, the history, a table with
    its statistics, a built-in and a house rule's page, and a house rule's deletion page."""
    match = make_match(planned_hands=4, hands=0)
    for finisher in range(4):
        inputs = sample_inputs(finisher=finisher, remaining=30)
        inputs["okey_finish"] = finisher % 2 == 1
        add_hand(match, inputs)
    table = table_from_match(match, "Cuma")
    house = HousePreset.objects.create(
        name="Bizim masa",
        rules=scoring.resolve_rules("cetele-standart"),
        base_slug="cetele-standart",
    )
    urls = {
        "sheet": reverse("matches:match_detail", args=[match.edit_token]),
        "view": reverse("sharing:view_match", args=[match.view_token]),
        "hand": reverse("matches:hand_detail", args=[match.edit_token, 2]),
        "history": reverse("matches:match_history", args=[match.edit_token]),
        "table": reverse("tables:table_detail", args=[table.edit_token]),
        "rules": reverse("house_rules:rules_detail", args=["om-klasik"]),
        "house": reverse("house_rules:house_detail", args=[house.view_token]),
        "house_delete": reverse("your_data:house_delete", args=[house.edit_token]),
    }
    pages = {}
    for name, url in urls.items():
        response = client.get(url)
        assert response.status_code == 200, name
        pages[name] = page_text(response)
    return pages


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["tr", "en"])
def test_pages_print_numbers_and_names_as_a_player_writes_them(client, lang):
    """On every page that prints numbers: the minus sign, never a hyphen ("−303", issue 29's
    "-303" on the sheet beside "−303" in the breakdowns); a finish's name in lower case in
    mid-sentence ("1. el, okeyle bitiş"); no retired variant built at run time ("Masa Cuma");
    no count of nothing ("0 maç")."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang

    pages = _pages_with_numbers(client)

    assert all("−" in pages[name] for name in ("sheet", "view", "hand", "table", "rules"))
    problems = {
        name: {
            # Not in the links a page shows as text: a token may begin with "-7" (seen once).
            "hyphen": vocabulary.HYPHEN_MINUS.findall(re.sub(r"https?://\S+", "", text)),
            "capital": capital_after_comma(text, lang),
            "retired": [r.pattern for r in retired_in(text, lang)],
            "zero": re.findall(r"\b0 (?:maç|match)", text),
        }
        for name, text in pages.items()
    }
    assert {name: found for name, found in problems.items() if any(found.values())} == {}


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/m/{}/", "/masa/{}/", "/ev/{}/"])
def test_a_bad_link_of_any_kind_gets_words_for_any_kind(client, path):
    """The 404 page serves match, table and house-rule links alike: it names none of them."""
    response = client.get(path.format("x" * 43))

    assert response.status_code == 404
    assert not re.search(r"\bmaç|çeteleyi tutan", page_text(response), re.IGNORECASE)


@pytest.mark.django_db
def test_the_english_statistics_columns_say_what_they_count(client):
    """ "Played" and "Hands" over counts, not "Match" and "Hand" (the sheet's own "Hand" column
    numbers hands and keeps its word)."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    match = make_match(planned_hands=1, hands=1)
    table = table_from_match(match, "Friday")

    html = client.get(reverse("tables:table_detail", args=[table.edit_token])).content.decode()

    heads = re.findall(r'<th scope="col">([^<]*)</th>', html)
    assert heads.count("Played") == 2 and "Hands" in heads
    assert "Match" not in heads and "Hand" not in heads


@pytest.mark.django_db
def test_the_first_dealer_choices_are_in_the_pages_language(client):
    """They were formatted once, at import, in Turkish: "1. oyuncu" on the English page."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = client.get(reverse("matches:match_create")).content.decode()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "tr"
    turkish = client.get(reverse("matches:match_create")).content.decode()

    dealer = re.compile(r'<select name="first_dealer"[^>]*>(.*?)</select>', re.DOTALL)
    assert re.findall(r">([^<]+)</option>", dealer.search(english)[1]) == [
        "Place 1",
        "Place 2",
        "Place 3",
        "Place 4",
    ]
    assert "1. oyuncu</option>" in dealer.search(turkish)[1]
