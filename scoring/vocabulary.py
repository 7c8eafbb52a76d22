"""The game's words: one Turkish word for each thing, the one a 101 table says, and its English.

Names (`scoring.names`), breakdown sentences (`scoring.sentences`), error messages
(`scoring.messages`) and the ruleset's labels (`scoring.parameters`) take these words from here;
the web app's own strings (templates, the English catalogue) use the same words, and
`RETIRED` lists the variants that once named the same things. tests/web/words/test_vocabulary.py
scans every string a player can read — templates, the web app's and the engine's strings, both
catalogues, and every engine message rendered — and fails on a retired variant or on a seat
number where a player's name belongs.

Plain data, no gettext: the scoring package must not import Django.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Term:
    tr: str
    en: str

    def __getitem__(self, lang: str) -> str:
        return self.en if lang == "en" else self.tr


# --- The words ------------------------------------------------------------------------------

OPENING = Term("açılış", "opening")  # the rulebooks' word; never "açış"
OPENING_BONUS = Term("açılış primi", "opening bonus")
# Kafa (elden): opening and finishing in the same turn ("sıra"), not "in the same hand" (el).
KAFA = Term("kafa", "kafa")
KAFA_MEANS = Term("açtığı sırada biten", "opened and finished in the same turn")
SAME_TURN = Term("aynı sırada", "in the same turn")
CUSTOM_PENALTY = Term("serbest ceza", "custom penalty")
# A discard that the next player used (in a run or in pairs) — not "işlendi": işlemek is adding a
# tile to a meld already on the table.
DISCARD_USED = Term("attığı taş kullanıldı", "discard was used")
USED_WHERE = Term("Nerede kullanıldı?", "Where was it used?")
# Taking back melds laid down or tiles added to them: one verb, "taş geri almak".
TAKE_BACK = Term("taş geri almak", "taking tiles back")
TOOK_BACK = Term("taş geri aldı", "took tiles back")
# A laid okey taken from a player's meld: "okey aldırmak" (letting it be taken).
OKEY_TAKEN = Term("okey aldırmak", "having the okey taken from your meld")
LET_OKEY_BE_TAKEN = Term("okey aldırdı", "okey taken from their meld")
PARTNER_TOOK_OKEY = Term("okeyi eşine aldırdı", "their partner took the okey")
SCORE_KEEPER = Term("çeteleyi tutan kişi", "the scorekeeper")
OR = Term("ya da", "or")
APP_NAME = Term("Çetele", "Çetele")  # the product's name in both languages


# --- Retired variants -----------------------------------------------------------------------


@dataclass(frozen=True)
class Retired:
    """A variant no player should read again: `pattern` (a regular expression, matched
    case-insensitively) and the word that replaced it."""

    pattern: str
    instead: str
    lang: str = "tr"  # "tr", "en" or "any": which strings it is looked for in

    def search(self, text: str) -> re.Match | None:
        return re.search(self.pattern, text, re.IGNORECASE)


RETIRED: tuple[Retired, ...] = (
    Retired(r"\baçış", "açılış"),
    Retired(r"açılış bonusu", "açılış primi"),
    Retired(r"^prim$", "açılış primi"),  # a label or column heading of its own
    Retired(r"özel ceza", "serbest ceza"),
    Retired(r"taşı geri aldı", "taş geri almak / taş geri aldı"),
    Retired(r"okeyi alındı|okeyi aldır|okeyi eşi aldı", "okey aldırmak / okeyi eşine aldırdı"),
    Retired(r"\bveya\b", "ya da"),
    Retired(r"açtığı elde|\bo el\b", "açtığı sırada / aynı sırada"),
    Retired(r"elde bitemez|elde bitebilir", "elden bitemez / açtığı sırada bitebilir"),
    Retired(r"maçı tutan", "çeteleyi tutan kişi"),
    Retired(r"kural takımı", "kurallar"),
    # İşlemek is adding to a meld on the table; a discard someone used was "kullanıldı".
    Retired(
        r"(?:attığı|taş|okey)\w* (?:\w+ )?(?:seriye |çifte )?işlen|nereye işlen|"
        r"\b(?:seriye|çifte) işle(?:di|nirse|nir)",
        "attığı taş seride/çiftte kullanıldı",
    ),
    Retired(r"perden okey alıp işleme", "perden okey alıp kullanmamak"),
    Retired(r"(?<!\()\?:", "a question ends with its question mark", "any"),
    Retired(r"in that hand", "in the same turn", "en"),
    Retired(r"\(at once\)|finish(?:ed)? at once", "in the same turn", "en"),
    Retired(r"^score sheet$", "Çetele (the product's name)", "en"),
    Retired(r"\b1 (?:were|players|hands|matches|tiles)\b", "one agrees in number", "en"),
    # Issue 29's read-through: each kind of mistake it found, as a rule.
    Retired(r"\bkimse bitirmedi", "kimse bitmedi (one phrase everywhere)"),
    Retired(r"\bskor", "puan / çetele (the app's words)"),
    Retired(r"\bkoltu[kğ]", "yer"),
    Retired(r"dondurul|okunmaya devam", "sabitlendi / açık kalır"),
    Retired(r"sunucu soruyor|son görülen durum", "what the player needs, not the machine"),
    Retired(r"maçlarını ve sayılarını|maçlarındaki sayıları", "istatistikleri"),
    Retired(r"açma durumu", "açılış"),
    Retired(r"\bkural kaydedildi", "kurallar kaydedildi"),
    Retired(r"yüzü kadar", "üstündeki sayı kadar"),
    Retired(r"okey / sahte okey", "what was left: okey, sahte okey, or okey ve sahte okey"),
    # One pattern for the finish names: "Çiftten …", "okey-kafa", never "Elden + …" or "A / B".
    Retired(
        r"elden \+|okey-kafa /|kafa / elden|pairs \+ |okey \+ kafa", "Çiftten okey-kafa", "any"
    ),
    Retired(r"\(= ?berabere\)|\d=\)|\(= level\)|\d=\)", "(2 berabere)", "any"),
    Retired(r"bitiş taşı olmadan", "el bitirirken değil"),
    # Broken genitive-possessive chains: "oyuncunun elin", "cezasını iki katı".
    Retired(r"\w+(?:ın|in|un|ün) elin\b", "oyuncunun o eldeki"),
    Retired(r"\w+[ıiuü]n[ıiuü] (?:iki|üç|dört|on) katı\b", "cezasının iki katını"),
    Retired(r"\bbu adresten", "bu ağdan (Wi-Fi): a player reads “adres” as the web address"),
    Retired(r"\bmasa %\(name\)s|^table %\(name\)s", "the table's name alone", "any"),
    Retired(r"(?<!başka )kimse açmamış olmalı", "başka kimse açmamış"),
    Retired(r"\d\. ve \d\. oyuncu bir takım", "karşılıklı oturanlar eş (1–3, 2–4)"),
    Retired(r"okeyler hariç sayıların", "okeyler dışındaki taşların toplamı"),
    Retired(r"aşağıdaki örnek el\b", "örnek eller (the panel shows two)"),
    Retired(r"oyuncuları masaya geçer", "bu maçın oyuncuları masaya eklenir"),
    Retired(r"\bbitiriş\b", "bitirdi (beside “Kazandı”)"),
    # The app says "siz": no "sen" forms (attığın, yaptığın; sen, sana).
    Retired(r"\b\w+[dt][ıiuü]ğ[ıiuü]n\b|\b(?:sen|seni|sana|senin)\b", "the siz form"),
    Retired(r"\bwrote\b|\bwrites? (?:the same|0|×|\d)|\bthey write\b", "scored / scores", "en"),
    Retired(r"\(1 times?\)", "once", "en"),
    Retired(r"\bgoing on\b", "in progress", "en"),
    Retired(r"^hands: ", "5 hands", "en"),
    Retired(r"how it was made", "how it was worked out", "en"),
    Retired(r"let their okey be taken|letting your okey be taken", "okey taken from a meld", "en"),
    Retired(r"\btiles open at most", "with 21 tiles you can open at most", "en"),
    Retired(r"^(?:first|second|third|fourth) player$|^name %\(", "Place N (one label)", "en"),
    Retired(r"^Ç: ", "P: pairs finish (English letters)", "en"),
    Retired(r"“Runs”", "“Run/set”, the button's word", "en"),
    # Issue "Words a player trusts" (docs: WORDS.md): one name a thing, a player's words.
    Retired(r"gizli puan", "gizli toplam (it hides the totals only)"),
    Retired(r"turnuvayı aç", "turnuvayı kur (açmak is a 101 move)"),
    Retired(r"^hesap yok", "üyelik (hesap is the bill)"),
    Retired(r"yeri boşalt", "Telefonu çıkar"),
    Retired(r"bir yer almamış", "Henüz adınızı seçmediniz (no hearsay -mış)"),
    Retired(r"fazla büyük", "çok yüksek (a price)"),
    Retired(r"\bdokunuş", "what was tapped (içecek, değişiklik): a player's word"),
    Retired(r"toplam yazılmış", "toplam yazılı (no hearsay -mış)"),
    Retired(r"\bscorer\b|person keeping score", "the scorekeeper", "en"),
    Retired(r"could not be told", "We couldn't tell which …", "en"),
    Retired(r"^averaj$", "score difference", "en"),
)

# A number as a page prints it: the minus sign (U+2212), never a hyphen-minus before a digit
# ("-303"); a range keeps its en dash ("2–4"). Looked for in rendered pages.
HYPHEN_MINUS = re.compile(r"(?<![\w\-])-\d")

# Seat numbers where a player's name belongs ("Oyuncu 2", "Player 2", "seat"): looked for in
# every string a page shows and every engine message rendered for a page.
SEAT_NUMBER = re.compile(
    r"\b[Oo]yuncu (?:\d|\{|%\()|\b[Pp]layers? (?:\d|\{|%\()|\bseats?\b", re.IGNORECASE
)


# Words of the JSON contract (types, null, seat ranges): the command line and `score_json` keep
# them; a message shown on a page says what to do instead ("Okeyi kimin aldığını seçin").
CONTRACT_WORDS = re.compile(
    r"\btrue (?:ya da|or) false\b|\bnull\b|\bbir nesne\b|\ban object\b|\bJSON\b|\{\.\.\.\}|"
    r"1 ile \d arasında bir oyuncu|\ba player from 1\b|\bKural “|\bRule “|\[\d+\]"
)


def retired_in(text: str, lang: str) -> list[Retired]:
    """The retired variants `text` (a string in `lang`) contains."""
    return [r for r in RETIRED if r.lang in (lang, "any") and r.search(text)]
