"""How a sentence is built (docs: /work/shared/WORDS.md, "Checking it"), checked by kind over every
string a page can show — the templates, the web app's strings, the English catalogue — and over
pages as phones see them:

- a player's name from data followed by a Turkish suffix ("%(name)s yerini", "{{ name }}'ın");
- a first-person sentence ("Bitirdim") in a template every phone draws alike;
- "&" between three or more names;
- two colons in one line;
- an English string left identical to its Turkish source;
- an English count with its noun left singular ("2 tea", "hand 0/3").

Each scanner is tried on planted strings first, so that a scan that finds nothing cannot pass by
reading nothing. The scans reuse test_vocabulary's collectors: a new template or message is
covered without a test change.
"""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils.translation import override

from cetele.seats.models import DraftRow, Objection
from cetele.tables.season import table_from_match
from cetele.tea.models import Drink
from cetele.tea.tally import Tally
from tests.factories import make_match, make_tournament
from tests.web.phones import join, joined_phone
from tests.web.seats.test_joining_the_table import row_data
from tests.web.words.test_vocabulary import (
    ROOT,
    catalogue_entries,
    page_text,
    python_strings,
    shown_strings,
    template_strings,
)

PO = ROOT / "locale/en/LC_MESSAGES/django.po"

# --- 1. No suffix after a name from data ------------------------------------------------------

# A placeholder that holds a person's or a team's name: %(name)s, {name}, {{ name }},
# {{ player.name }}, {{ payers }}...
NAME_SLOT = (
    r"(?:%\((?:name|names|payers|player|team)\)s|\{(?:name|names)\}"
    r"|\{\{ ?[\w.]*(?:name|names|payers) ?\}\})"
)
# The nouns a player's sentence owns (a seat, a total, a phone...), in a possessive or case form.
OWNED = (
    r"(?:yer|toplam|puan|telefon|satır|sıra|itiraz|takım|ad|hesab|el|pay)"
    r"(?:ı|i|u|ü|sı|si|ını|ini|unu|ünü|ında|inde|unda|ünde|ına|ine|una|üne)\b"
)
NAME_SUFFIX = re.compile(rf"{NAME_SLOT}(?:</\w+>)?(?:['’]\w|\s+{OWNED})")


def name_suffixes() -> list[str]:
    found = [
        f"{where}: {text!r}"
        for where, lang, text in shown_strings()
        if lang == "tr" and NAME_SUFFIX.search(text)
    ]
    # A template's own text around a name it prints ({{ state.name }}'ın): the scanner of
    # shown strings replaces the tag, so the template is read as written.
    for path in sorted((ROOT / "templates").rglob("*.html")):
        found += [f"{path}: {m[0]!r}" for m in NAME_SUFFIX.finditer(path.read_text())]
    return sorted(set(found))


@pytest.mark.parametrize(
    ("text", "caught"),
    [
        ("%(name)s yerini boşalttınız", True),
        ("%(name)s toplamı", True),
        ("{{ name }}'ın satırı", True),
        ("<strong>{{ state.name }}</strong>'ın", True),
        ("Kaybeden öder: %(payers)s'a", True),
        ("Toplam — %(name)s", False),
        ("%(name)s yazdı", False),
        ("%(name)s seri açtı", False),
        ("%(name)s (telefonu var)", False),
        ("%(number)s. elin", False),
    ],
)
def test_the_name_scanner_catches_a_suffix_after_a_name(text, caught):
    assert bool(NAME_SUFFIX.search(text)) is caught


def test_no_suffix_after_a_name_from_data():
    """ "Ayşe yerini…", "Ayşe toplamı" break the genitive ("Ayşe'nin", "Deniz'in" depend on the
    name): apposition or the name last."""
    assert name_suffixes() == []


# --- 2. Third person about others on what every phone sees -----------------------------------

# Drawn once for every phone of a match or a tournament: no sentence here is one player's own.
EVERY_PHONE = [
    "templates/cetele/matches/_sheet.html",
    "templates/cetele/matches/_summary.html",
    "templates/cetele/matches/_chart.html",
    "templates/cetele/seats/_objections.html",
    "templates/cetele/seats/_rows.html",
    "templates/cetele/tea/_bill.html",
    "templates/cetele/tea/_counts.html",
    "templates/cetele/tournaments/_live_inside.html",
]
# A verb in the first person singular: bitirdim, açtım, yazdım, kazandım, attım...
FIRST_PERSON = re.compile(r"\b\w+(?:d|t)(?:ım|im|um|üm)\b", re.IGNORECASE)
NOT_A_VERB = {"tüm"}


def first_person_lines() -> list[str]:
    found = []
    for name in EVERY_PHONE:
        for text in template_strings((ROOT / name).read_text()):
            words = [w for w in FIRST_PERSON.findall(text) if w.lower() not in NOT_A_VERB]
            found += [f"{name}: {text!r}" for _ in words[:1]]
    return found


@pytest.mark.parametrize(
    ("text", "caught"),
    [("Bitirdim", True), ("Açtım", True), ("Deniz bitirdi", False), ("tüm eller", False)],
)
def test_the_first_person_scanner_catches_a_players_own_words(text, caught):
    assert bool([w for w in FIRST_PERSON.findall(text) if w.lower() not in NOT_A_VERB]) is caught


def test_what_every_phone_sees_speaks_of_players_in_the_third_person():
    """The list every phone sees says "Deniz bitirdi", never "Deniz: Bitirdim"."""
    assert [name for name in EVERY_PHONE if not (ROOT / name).exists()] == []
    assert first_person_lines() == []


# --- 3. "ve", not "&", between more than two ------------------------------------------------

AMPERSAND_LIST = re.compile(r"\w+ & \w+ & \w")
# Code that joins a list of names with " & ": only a team of two may be written so.
AMPERSAND_JOIN = re.compile(r"""(?:["']\s&\s["']\.join\(|join:["']\s&\s["'])""")
TEAM_OF_TWO = {
    # A side of an eşli tournament is two players: the list is compared with the team's
    # default name ("Ayşe & Ali").
    ("templates/cetele/tournaments/detail.html", 'side.players|join:" & "'),
}


def ampersand_joins() -> list[str]:
    found = [
        f"{where}: {text!r}"
        for where, _lang, text in shown_strings()
        if AMPERSAND_LIST.search(text)
    ]
    sources = [*(ROOT / "templates").rglob("*.html"), *(ROOT / "cetele").rglob("*.py")]
    for path in sorted(sources):
        name = str(path.relative_to(ROOT))
        for line in path.read_text().splitlines():
            if AMPERSAND_JOIN.search(line) and not any(
                name == where and code in line for where, code in TEAM_OF_TWO
            ):
                found.append(f"{name}: {line.strip()!r}")
    return found


@pytest.mark.parametrize(
    ("text", "caught"),
    [
        ('payers = " & ".join(tally.payers)', True),
        ('{{ tea.payers|join:" & " }}', True),
        ('{{ names|join:", " }}', False),
    ],
)
def test_the_ampersand_scanner_catches_a_join(text, caught):
    assert bool(AMPERSAND_JOIN.search(text)) is caught


def test_the_ampersand_list_pattern():
    assert AMPERSAND_LIST.search("Ali & Deniz & Ömer")
    assert not AMPERSAND_LIST.search("Ali & Deniz")


def test_more_than_two_names_are_listed_with_ve():
    assert ampersand_joins() == []


@pytest.mark.parametrize(
    ("lang", "said"), [("tr", "Ali, Deniz ve Ömer"), ("en", "Ali, Deniz and Ömer")]
)
def test_three_players_tied_for_last_pay_as_a_list(lang, said):
    """The tea bill's payers when three share last place."""
    tally = Tally([], [], [], 0, False, "loser", ["Ali", "Deniz", "Ömer"], True)

    with override(lang):
        assert tally.payers_words == said


# --- 4. One colon a line ----------------------------------------------------------------------

# Not a reader's colon: a time, a link, a route ("<int:number>"), an address ("::1"), and an
# example of what to type, in quotes (“Takım adı: Ayşe, Ali”).
NOT_A_COLON = re.compile(r"\d:\d|https?://\S+|<\w+:\w+>|::|“[^”]*”")
# A line's sentences, and the items of a line a middle dot separates ("Ç: çiftten bitiş ·
# O: okeyle bitiş"), are read one by one.
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-ZÇĞİÖŞÜ])| · ")
# The engine's contract message for a command line and JSON, where "{where}" is a field path
# ("rules.okey_left.counts"); a page shows its own wording (scoring.messages.PAGE_ERRORS).
CONTRACT = {"{where}: şunlardan biri olmalı: {choices}."}


def colons(text: str) -> int:
    """The colons of the sentence with the most of them."""
    text = NOT_A_COLON.sub(" ", text)
    return max(part.count(":") for part in SENTENCE_END.split(text))


def two_colon_strings() -> list[str]:
    return [
        f"{where}: {text!r}"
        for where, _lang, text in shown_strings()
        if colons(text) >= 2 and text not in CONTRACT
    ]


def test_no_string_holds_two_colons():
    """ "1. el — Ayşe: puan yanlış", not "1. el: Ayşe: puan yanlış"."""
    assert two_colon_strings() == []


BLOCK = re.compile(
    r"</?(?:p|li|h[1-6]|div|td|th|dt|dd|tr|section|label|button|summary|option|legend|pre|br|ul|ol|nav|form|fieldset|details)\b[^>]*>",
    re.I,
)


def rendered_lines(html_text: str) -> list[str]:
    """The lines a page shows: its text between block elements."""
    html_text = re.sub(r"<(script|style|template)\b.*?</\1>", " ", html_text, flags=re.S)
    html_text = re.sub(r'\s(?:title|aria-label|data-[\w-]+)="[^"]*"', " ", html_text)
    # A message to copy keeps its own lines.
    html_text = re.sub(
        r"<(pre|textarea)\b.*?</\1>",
        lambda m: m[0].replace("\n", "<br>"),
        html_text,
        flags=re.S,
    )
    lines = []
    for chunk in BLOCK.split(html_text):
        text = " ".join(page_text_of(chunk).split())
        lines += [text] if text else []
    return lines


def page_text_of(fragment: str) -> str:
    class Fake:
        content = fragment.encode()

    return page_text(Fake)


def test_the_line_splitter_counts_colons_per_line():
    html_text = (
        "<p>Toplam: 2 çay. Sıradaki maçta: Kaybeden öder: maç bitince</p>"
        "<li><strong>Deniz</strong>: telefonu yok</li><p>Ç: çift · O: okey</p>"
        "<p>Ali: 1, 2. Can: 3, 4.</p>"
    )
    assert [line for line in rendered_lines(html_text) if colons(line) >= 2] == [
        "Toplam: 2 çay. Sıradaki maçta: Kaybeden öder: maç bitince"
    ]


# --- 5. English that is not a copy of the Turkish ---------------------------------------------

# Strings the same in both languages, each with its reason.
SAME_IN_BOTH = {
    ":": "punctuation",
    "Kafa": "the game's own word (WORDS.md English 2)",
    "Okey": "the game's own word",
    "Okey: %(tile)s": "the game's own word and a tile",
    "%(okeys)s okey": "one okey (its plural, msgstr[1], is “okeys”)",
    "Çetele": "the app's name",
    "Türkçe": "a language's name is written in that language",
    "English": "a language's name is written in that language",
    "Normal": "the same word in both",
    "Final": "the same word in both",
    "%(name)s: %(totals)s": "a name and numbers",
}


def untranslated() -> list[str]:
    return sorted(
        {
            msgid
            for msgid, msgstr in catalogue_entries(PO.read_text())
            if msgid == msgstr and msgid not in SAME_IN_BOTH and re.search(r"[^\W\d_]", msgid)
        }
    )


def test_the_untranslated_scanner_reads_the_catalogue():
    po = 'msgid ""\nmsgstr "h"\n\nmsgid "Averaj"\nmsgstr "Averaj"\n'
    entries = catalogue_entries(po)
    assert [i for i, s in entries if i == s and i not in SAME_IN_BOTH] == ["Averaj"]


def test_every_english_string_is_english():
    """ "Averaj" on an English page: a copy of the Turkish is a string nobody translated."""
    assert untranslated() == []


# --- 6. English counts agree in number ------------------------------------------------------

COUNTED = (
    r"(?:fake okey|okey|hand|tea|coffee|match|game|player|point|tile|round|table|entrant"
    r"|drink|time|pair)"
)
# A count that may be more than one: a placeholder, or a number other than 1.
COUNT = (
    r"(?:%\((?:count|n|okeys|fakes|played|planned|hands|number)\)s|\{(?:n|okeys|fakes)\}"
    r"|(?<![\d.,])(?:[02-9]|[1-9]\d+))"
)
# "%(count)s okey" where the count may be 2, or "hand 0/3": the noun must follow in the plural.
SINGULAR_AFTER_COUNT = re.compile(rf"{COUNT} {COUNTED}\b(?!s)|\b{COUNTED} {COUNT} ?/ ?{COUNT}")


def singular_counts() -> list[str]:
    """English strings with a count whose noun stays singular. An ngettext entry's singular
    form (msgstr[0]) is one: only its plural is read."""
    found = []
    for block in PO.read_text().split("\n\n"):
        plural = "msgid_plural" in block
        for msgid, msgstr in catalogue_entries(block):
            if plural and msgstr == _first_msgstr(block):
                continue
            if SINGULAR_AFTER_COUNT.search(msgstr):
                found.append(f"{msgid!r} → {msgstr!r}")
    return sorted(set(found))


def _first_msgstr(block: str) -> str:
    entries = catalogue_entries(block)
    return entries[0][1] if entries else ""


@pytest.mark.parametrize(
    ("text", "caught"),
    [
        ("%(fakes)s fake okey", True),
        ("2 tea", True),
        ("hand %(played)s/%(planned)s", True),
        ("%(fakes)s fake okeys", False),
        ("%(played)s/%(planned)s hands", False),
        ("Hand %(number)s", False),
        ("2 teas", False),
    ],
)
def test_the_count_scanner_catches_a_singular_noun(text, caught):
    assert bool(SINGULAR_AFTER_COUNT.search(text)) is caught


def test_english_counts_take_the_plural():
    """ "2 fake okeys", "2 teas", "0/3 hands" (ngettext for a count that may be one)."""
    assert singular_counts() == []


# --- 7. One apostrophe in the English; "işlemek" only for a tile added to a meld ---------------


def curly_apostrophes() -> list[str]:
    """English strings with ’ where the others write ' ("The indicator’s colour" beside
    "Indicator's number")."""
    return sorted({s for _i, s in catalogue_entries(PO.read_text()) if "’" in s})


def test_the_english_writes_one_apostrophe():
    assert curly_apostrophes() == []


# "İşlemek" is adding a tile to a meld on the table (WORDS.md Turkish 1): a row, a gösterge, a
# drink is "sayıldı" or "kullanıldı", never "işlendi".
APPLIED = re.compile(r"\bişlen(?:ir|di|medi|mez|ecek|iyor)\b", re.IGNORECASE)


def applied_as_islemek() -> list[str]:
    return sorted(
        {
            f"{where}: {text!r}"
            for where, lang, text in shown_strings()
            if lang == "tr" and APPLIED.search(text)
        }
    )


@pytest.mark.parametrize(
    ("text", "caught"),
    [("bu satır işlenmedi", True), ("eli kaydedince işlenir", True), ("İşlek taş attı", False)],
)
def test_the_applied_scanner_catches_islemek(text, caught):
    assert bool(APPLIED.search(text)) is caught


def test_nothing_is_islendi_but_a_tile():
    assert applied_as_islemek() == []


# --- Pages as phones see them -----------------------------------------------------------------


@pytest.fixture
def table_pages(client):
    """A match at its third hand: Ayşe's phone wrote that she finished, Can's wrote a row and
    objected to the first hand, Deniz has no phone; tea for three; every page of it, a table's
    with drinks waiting and a tournament's, in Turkish and English."""
    match = make_match(hands=2)
    ayse, can = joined_phone(match, 1), joined_phone(match, 2)
    ayse.post(join("seats:join_row", match), row_data(3, opened="pairs", finished=True))
    can.post(join("seats:join_row", match), row_data(3, remaining=34, fake_okeys=2))
    assert DraftRow.objects.filter(match=match).count() == 2
    first = match.hands.order_by("number").values_list("number", flat=True)[0]
    can.post(join("seats:join_objection", match, first), {"reason": "score"})
    assert Objection.objects.filter(match=match).count() == 1
    Drink.objects.bulk_create([Drink(match=match, seat=seat, item=0) for seat in (0, 0, 1)])
    tournament = make_tournament("tek", entrants=8, drawn=True)
    # A table between two matches, with drinks waiting for its next one.
    table = table_from_match(make_match(planned_hands=1, hands=1), "Cuma")
    Drink.objects.bulk_create([Drink(table=table, place=place, item=0) for place in (0, 1)])
    urls = {
        "scorer": reverse("matches:match_detail", args=[match.edit_token]),
        # What the scorer's page asks for once drawn: the rows the phones wrote.
        "scorer_rows": reverse("seats:seat_rows", args=[match.edit_token]),
        "view": reverse("sharing:view_match", args=[match.view_token]),
        "history": reverse("matches:match_history", args=[match.edit_token]),
        "share": reverse("sharing:match_share", args=[match.edit_token]),
        "table": reverse("tables:table_detail", args=[table.edit_token]),
        "tournament": reverse("tournaments:tournament_detail", args=[tournament.edit_token]),
        "tournament_view": reverse("tournaments:view_tournament", args=[tournament.view_token]),
    }
    pages = {}
    for lang in ("tr", "en"):
        for phone in (client, ayse, can):
            phone.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
        for name, url in urls.items():
            response = client.get(url)
            assert response.status_code == 200, name
            pages[name, lang] = response.content.decode()
        pages["joined", lang] = can.get(join("seats:join_match", match)).content.decode()
    return pages


@pytest.mark.django_db
def test_pages_hold_one_colon_a_line_and_speak_of_others_in_the_third_person(table_pages):
    problems = []
    for (name, lang), html_text in table_pages.items():
        problems += [(name, lang, line) for line in rendered_lines(html_text) if colons(line) >= 2]
        problems += [(name, lang, m) for m in AMPERSAND_LIST.findall(page_text_of(html_text))]
        if lang == "en":
            text = page_text_of(html_text)
            problems += [(name, lang, m[0]) for m in SINGULAR_AFTER_COUNT.finditer(text)]
    assert "\n".join(map(str, sorted(set(problems)))) == ""


@pytest.mark.django_db
def test_the_rows_every_phone_sees_say_who_finished_in_the_third_person(table_pages):
    """ "✓ Ayşe bitirdi", on Can's phone and on the scorer's; never "Ayşe: Bitirdim"."""
    for page in ("joined", "scorer_rows"):
        rows = re.search(r'<section id="table-rows".*?</section>', table_pages[page, "tr"], re.S)
        # "(siz)" shows only beside the phone's own player (seats.css): not a word of the list.
        rows = re.sub(r"<span class=\"own-mark\">.*?</span>", "", rows[0])
        text = " ".join(page_text_of(rows).split())
        assert "Ayşe bitirdi" in text and "Bitirdim" not in text, text


def test_the_planted_checkout_is_read():
    """The scanners read real files: the catalogue and at least the pages named above."""
    assert len(catalogue_entries(PO.read_text())) > 500
    assert python_strings('x = _("Açış")')[0] == ["Açış"]
    assert Path(ROOT / EVERY_PHONE[0]).read_text()
