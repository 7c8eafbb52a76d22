"""Every ruleset parameter, declared once: its path, type, default, bounds, section, and its
Turkish and English label and one-line help.

From this one list come: validating a ruleset (`normalize`), filling a key a stored ruleset
lacks with its default, the house-rule editor's fields, the rules pages, and the marks where a
match's rules differ from its preset (`differences`). Adding a simple parameter means one
`Param` here, the engine step that uses it, and tests.

A `Param` is a leaf (a number, a switch, a choice...). A `Group` is an object that can be off as
a whole (`null`, or absent for an optional finish row) — the editor shows it as a switch over
its fields. Objects that are always there (`okey_left`, `teams`, `finishes`...) need no
declaration: they are the paths' prefixes.

Defaults: the parameters every ruleset has had since the first version are REQUIRED (a stored
ruleset always has them, and a forgotten one in a hand-written ruleset is a mistake worth
naming). Every parameter added later declares the value that means "this rule is off" — `None`,
or ABSENT for an optional finish row — so a ruleset stored before it existed scores exactly as
it did, and `validate_ruleset(...).to_json()` includes the filled key.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from scoring import vocabulary as v
from scoring.model import FACE, MAX_REMAINING, Colour, FinishKind, Raising
from scoring.names import FINISH_NAMES, colour_name
from scoring.turkish import accusative, capitalize

MAX_MULTIPLIER = 100
MAX_AMOUNT = 100_000
MATCH_LENGTHS = (1, 3, 5, 7, 9, 11, 13)

# Types of a Param's value.
INT, BOOL, TEXT, CHOICE, COUNTS, LENGTHS, TIERS = (
    "int",
    "bool",
    "text",
    "choice",
    "counts",  # okey_left.counts: "face" or a fixed number
    "lengths",  # hands: match lengths from MATCH_LENGTHS, no repeats
    "tiers",  # opening_bonus: a list of {series, pairs, points}
)


class _Marker:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


REQUIRED = _Marker("REQUIRED")  # a missing key is an error
ABSENT = _Marker("ABSENT")  # a missing key stays missing (an optional finish row: off)

Text = tuple[str, str]  # (Turkish, English)


@dataclass(frozen=True)
class Section:
    key: str
    title: Text


@dataclass(frozen=True)
class Param:
    """One leaf of a ruleset. `nullable`: null means the rule is off."""

    path: str
    type: str
    section: str
    label: Text
    help: Text = ("", "")
    lo: int | None = None
    hi: int | None = None
    choices: tuple[tuple[Any, Text], ...] = ()
    nullable: bool = False
    default: Any = REQUIRED
    signed: bool = False  # the value is written with a minus sign (a winner's points)

    @property
    def key(self) -> str:
        return self.path.rpartition(".")[2]

    def text(self, what: str, lang: str) -> str:
        return getattr(self, what)[lang == "en"]


@dataclass(frozen=True)
class Group:
    """An object that can be off as a whole; its fields are the Params under its path."""

    path: str
    section: str
    label: Text
    help: Text = ("", "")
    default: Any = REQUIRED  # None: off when missing; ABSENT: an optional finish row
    # The rules page's one-line summary of the group when on: (values, lang) → text.
    summary: Callable[[Mapping[str, Any], str], str] | None = None

    @property
    def key(self) -> str:
        return self.path.rpartition(".")[2]

    @property
    def off_value(self) -> Any:
        """What the ruleset holds when the group is off: None, or ABSENT (no key)."""
        return ABSENT if self.default is ABSENT else None

    def text(self, what: str, lang: str) -> str:
        return getattr(self, what)[lang == "en"]


SECTIONS = (
    Section("name", ("Ad", "Name")),
    Section("finishes", ("Bitişler", "Finishes")),
    Section("kafa", ("Kafa", "Kafa")),
    Section("pairs", ("Çift açan", "Pair opener")),
    Section("okey_left", ("Elde kalan okey", "Okey left in hand")),
    Section("teams", ("Eşli oyun", "Team play")),
    Section("penalties", ("Cezalar", "Penalties")),
    Section("opening", ("Açılış", "Opening")),
    Section("match", ("Taş ve maç", "Tiles and match")),
    Section("house", ("Ev kuralları", "House rules")),
)

# --- The finish table -----------------------------------------------------------------------

FINISH_COLUMNS = ("winner", "opened_multiplier", "not_opened", "opened_flat")
COLUMN_LABELS: dict[str, Text] = {
    "winner": ("Bitiren", "Finisher"),
    "opened_multiplier": ("Açan ×", "Opened ×"),
    "not_opened": ("Açamayan", "Not opened"),
    "opened_flat": ("Açana sabit", "Opened: flat"),
}
COLUMN_HELP: dict[str, Text] = {
    "winner": ("Bitirenin yazdığı (0 ya da eksi).", "What the finisher scores (0 or negative)."),
    "opened_multiplier": (
        "Açıp kaybedenin eldeki taşları bu sayıyla çarpılır.",
        "A loser who opened scores the tiles in hand times this number.",
    ),
    "not_opened": (
        "Açamayanın yazdığı sabit ceza.",
        "The fixed penalty a player who did not open scores.",
    ),
    "opened_flat": (
        "Doluysa, açıp kaybeden elindekine bakılmadan bu puanı yazar (ör. kafada 808). Boş = yok.",
        "When set, a loser who opened scores this, whatever they hold (e.g. 808 on a kafa). "
        "Empty = none.",
    ),
}
FINISH_HELP: dict[str, Text] = {
    "normal": ("Seri açıp biten", "Opened runs/sets and finished"),
    "kafa": ("Açtığı sırada biten (elden)", "Opened and finished in the same turn"),
    "pairs": ("Çift açıp biten", "Opened pairs and finished"),
    "okey": ("Son taş olarak okey atan", "Discarded the okey as the last tile"),
    "okey_kafa": (
        "Elden ve okey atarak biten",
        "Opened and finished in the same turn, discarding the okey",
    ),
    "pairs_okey": (
        "Çift açıp okey atarak biten",
        "Opened pairs, finished by discarding the okey",
    ),
    "pairs_kafa": ("Çift açıp açtığı sırada biten", "Opened pairs and finished in the same turn"),
    "pairs_okey_kafa": (
        "Çift açıp açtığı sırada okey atarak biten",
        "Opened pairs and finished in the same turn, discarding the okey",
    ),
    "none": ("Taşlar bitti, kimse bitmedi", "Tiles ran out, nobody finished"),
}
# Rows every ruleset has; the two optional rows are Groups (off = no row).
REQUIRED_FINISHES = ("normal", "kafa", "pairs", "okey", "okey_kafa", "pairs_okey", "none")
OPTIONAL_FINISHES = ("pairs_kafa", "pairs_okey_kafa")
FINISH_ORDER = tuple(kind.value for kind in FinishKind)  # RULES.md's order


# A house-rule extension (RULES.md): absent from every built-in row, and not on the `none` row.
OPTIONAL_COLUMNS = ("opened_flat",)


def shown_columns(finishes: Mapping[str, Any]) -> tuple[str, ...]:
    """The finish table's columns as a ruleset's rules page shows them: an optional one only
    where some row of this ruleset sets it."""
    rows = [row for row in finishes.values() if isinstance(row, Mapping)]
    return tuple(
        column
        for column in FINISH_COLUMNS
        if column not in OPTIONAL_COLUMNS or any(row.get(column) is not None for row in rows)
    )


def _finish_params(kind: str) -> list[Param]:
    # Nobody finished: no winner, and no flat amount for openers.
    columns = ("opened_multiplier", "not_opened") if kind == FinishKind.NONE else FINISH_COLUMNS
    bounds = {
        "winner": (-MAX_AMOUNT, 0),
        "opened_multiplier": (1, MAX_MULTIPLIER),
        "not_opened": (0, MAX_AMOUNT),
        "opened_flat": (0, MAX_AMOUNT),
    }
    return [
        Param(
            f"finishes.{kind}.{column}",
            INT,
            "finishes",
            (
                f"{FINISH_NAMES['tr'][kind]} — {COLUMN_LABELS[column][0]}",
                f"{FINISH_NAMES['en'][kind]} — {COLUMN_LABELS[column][1]}",
            ),
            COLUMN_HELP[column],
            *bounds[column],
            signed=column == "winner",
            # Off unless set: a ruleset without the key scores as it always did.
            **({"nullable": True, "default": ABSENT} if column in OPTIONAL_COLUMNS else {}),
        )
        for column in columns
    ]


# --- The declaration ------------------------------------------------------------------------

PENALTY_TEXTS: dict[str, tuple[Text, Text]] = {
    "okey_discard": (
        ("Okey atmak", "Discarding an okey"),
        (
            "Okeyi el bitirirken değil, oyun sırasında yere atmak.",
            "Discarding the okey other than as the finishing tile.",
        ),
    ),
    "islek_discard": (
        ("İşlek taş atmak", "Discarding a playable (işlek) tile"),
        (
            "Masadaki bir pere işlenebilecek taşı atmak.",
            "Discarding a tile that could be added to a meld on the table.",
        ),
    ),
    "islek_taken_factor": (
        ("İşlek taş alınırsa taş ×", "Playable tile taken: tile ×"),
        (
            "Sonraki oyuncu işlek taşı aldıysa ceza taş × bu sayı olur. Boş = hep sabit ceza.",
            "If the next player took the playable tile, the penalty is the tile × this number. "
            "Empty = always the fixed penalty.",
        ),
    ),
    "take_back": (
        (capitalize(v.TAKE_BACK.tr), capitalize(v.TAKE_BACK.en, "en")),
        (
            "Açtığı perleri ya da işlediği taşları geri almak.",
            "Taking back melds laid down or tiles added to melds.",
        ),
    ),
    "failed_open": (
        ("Açılışı tutturamamak", "Falling short of the opening"),
        (
            "Yetmeyen açılışı geri toplamak.",
            "Picking up an opening that did not reach the minimum.",
        ),
    ),
    "okey_taken": (
        (capitalize(v.OKEY_TAKEN.tr), capitalize(v.OKEY_TAKEN.en, "en")),
        (
            "Perdeki okeyini başka bir oyuncuya aldırmak.",
            "Letting another player take the okey from your meld.",
        ),
    ),
    "side_take_unused": (
        ("Yandan alıp kullanmamak", "Taking the side tile, not using it"),
        (
            "Soldakinin attığı taşı alıp aynı sırada kullanmamak.",
            "Taking the tile the player on your left discarded and not using it in the same turn.",
        ),
    ),
    "okey_from_per_unused": (
        ("Perden okey alıp kullanmamak", "Taking an okey from a meld, not using it"),
        (
            "Perden aldığı okeyi aynı sırada yere koymamak.",
            "Not laying down, in the same turn, an okey taken from a meld.",
        ),
    ),
}
BLANK_IS_OFF: Text = ("Boş = bu ceza yok.", "Empty = no such penalty.")
DISCARD_USED_LABELS: dict[str, Text] = {
    "series": ("Taş seride kullanılırsa ×", "Tile used in a run/set ×"),
    "pairs": ("Taş çiftte kullanılırsa ×", "Tile used in pairs ×"),
    "okey_series": ("Okey seride kullanılırsa ×", "Okey used in a run/set ×"),
    "okey_pairs": ("Okey çiftte kullanılırsa ×", "Okey used in pairs ×"),
}
TIER_COLUMNS: dict[str, Text] = {
    "series": ("Puanla", "Points"),
    "pairs": ("Çiftle", "Pairs"),
    "points": (capitalize(v.OPENING_BONUS.tr), capitalize(v.OPENING_BONUS.en, "en")),
}
COLOUR_HELP: Text = (
    "Gösterge bu renkteyse el bu sayıyla çarpılır.",
    "When the indicator is this colour the hand is multiplied by this number.",
)


def _pair_over_summary(values: Mapping[str, Any], lang: str) -> str:
    threshold, penalty = values["threshold"], values["penalty"]
    if lang == "en":
        return f"a total over {threshold} adds +{penalty}"
    return f"toplam {accusative(threshold)} geçerse üstüne +{penalty}"


def _discard_used_summary(values: Mapping[str, Any], lang: str) -> str:
    s, p, os_, op = (values[k] for k in ("series", "pairs", "okey_series", "okey_pairs"))
    if lang == "en":
        return f"tile × {s} (run), × {p} (pairs); okey × {os_} / × {op}"
    return f"taş × {s} (seride), × {p} (çiftte); okey × {os_} / × {op}"


def _riziko_summary(values: Mapping[str, Any], lang: str) -> str:
    m = values["multiplier"]
    if lang == "en":
        return f"indicator a fake okey: the finish table × {m}"
    return f"gösterge sahte okeyse bitiş tablosu × {m}"


def _colours_summary(values: Mapping[str, Any], lang: str) -> str:
    multipliers = ", ".join(
        f"{colour_name(colour.value, lang)} × {values['multipliers'][colour.value]}"
        for colour in Colour
    )
    scope = dict(SCOPE_CHOICES)[values["scope"]][lang == "en"]
    return f"{multipliers} ({scope})"


SCOPE_CHOICES: tuple[tuple[str, Text], ...] = (
    ("finish", ("bitiş tablosu çarpılır", "the finish table is multiplied")),
    ("all", ("elin bütün puanı çarpılır", "the whole hand score is multiplied")),
)

DECLARATION: tuple[Param | Group, ...] = (
    Param(
        "name",
        TEXT,
        "name",
        ("Adı", "Name"),
        (
            "Maçta ve paylaştığınız bağlantıda görünür.",
            "Shown in matches and on the link you share.",
        ),
    ),
    *(param for kind in REQUIRED_FINISHES[:-1] for param in _finish_params(kind)),
    Group(
        "finishes.pairs_kafa",
        "finishes",
        ("Çiftten kafa olur", "Pairs kafa allowed"),
        (
            "Çift açan, açtığı sırada bitebilir (hazır kuralların hiçbirinde yok).",
            "A pair opener may open and finish in the same turn (none of the presets has this).",
        ),
        default=ABSENT,
    ),
    *_finish_params("pairs_kafa"),
    Group(
        "finishes.pairs_okey_kafa",
        "finishes",
        ("Çiftten okey-kafa ayrı satır", "Pairs okey-kafa has its own row"),
        (
            "Çift açıp açtığı sırada okey atarak bitene ayrı değerler; yoksa çiftten kafa "
            "satırı sayılır. Yalnızca çiftten kafa varsa.",
            "Its own figures for opening pairs and finishing in the same turn with the okey; "
            "otherwise the pairs kafa row counts. Only with pairs kafa.",
        ),
        default=ABSENT,
    ),
    *_finish_params("pairs_okey_kafa"),
    *_finish_params("none"),
    Param(
        "kafa_requires_nobody_opened",
        BOOL,
        "kafa",
        ("Kafa için başka kimse açmamış olmalı", "Kafa only if nobody else opened"),
        (
            "İşaretliyse başka bir oyuncu açmışken kafa (elden) bitiş olmaz.",
            "If ticked, there is no kafa finish once another player has opened.",
        ),
    ),
    Param(
        "pair_opener_multiplier",
        INT,
        "pairs",
        ("Çift açanın katı", "Pair opener multiplier"),
        (
            "Çift açıp kaybedenin taşları ayrıca bu sayıyla çarpılır.",
            "A loser who opened pairs also has their tiles multiplied by this number.",
        ),
        1,
        MAX_MULTIPLIER,
    ),
    Group(
        "pair_opener_over",
        "pairs",
        ("Çift açan sınırı geçerse ceza", "Penalty when a pair opener goes over a limit"),
        (
            "Çift açanın taş toplamı (çarpmadan önce) sınırı geçerse üstüne ceza yazılır.",
            "If a pair opener's tile total (before multiplying) is over the limit, a penalty "
            "is added on top.",
        ),
        summary=_pair_over_summary,
    ),
    Param(
        "pair_opener_over.threshold",
        INT,
        "pairs",
        ("Sınır", "Limit"),
        (
            "Örneğin 100: 100'ü geçen toplam cezalıdır.",
            "For example 100: a total over 100 is penalised.",
        ),
        0,
        MAX_AMOUNT,
    ),
    Param(
        "pair_opener_over.penalty",
        INT,
        "pairs",
        ("Sınırı geçme cezası", "Over-the-limit penalty"),
        ("Çarpılmadan eklenir.", "Added without multiplying."),
        0,
        MAX_AMOUNT,
    ),
    Param(
        "okey_left.counts",
        COUNTS,
        "okey_left",
        ("Elde kalan okey nasıl sayılır?", "How does an okey left in hand count?"),
        (
            "Üstündeki sayı kadar ya da sabit bir değer (101, ya da hiç sayılmasın diye 0); "
            "eldeki taşlara eklenir ve onlarla birlikte çarpılır.",
            "Its face value or a fixed value (101, or 0 so that it does not count at all); "
            "added to the tiles in hand and multiplied with them.",
        ),
        0,
        MAX_AMOUNT,
        choices=((FACE, ("Üstündeki sayı kadar", "Its face value")),),
    ),
    Param(
        "okey_left.penalty",
        INT,
        "okey_left",
        ("Elde kalan okey cezası", "Penalty for an okey left in hand"),
        (
            "Cezalı masada elde kalan her okey için üstüne eklenir, çarpılmaz. 0 = yok.",
            "At a table with penalties, added on top for each okey left in hand, not "
            "multiplied. 0 = none.",
        ),
        0,
        MAX_AMOUNT,
    ),
    Param(
        "okey_left.fake_too",
        BOOL,
        "okey_left",
        ("Sahte okey de cezalı", "Fake okey penalised too"),
        (
            "İşaretliyse elde kalan sahte okeye de bu ceza yazılır.",
            "If ticked, a fake okey left in hand gets this penalty too.",
        ),
    ),
    Param(
        "teams.winner_partner_zero",
        BOOL,
        "teams",
        ("Eşlide bitirenin eşi 0 yazar", "Teams: the finisher's partner scores 0"),
        (
            "İşaretli değilse bitirenin eşi de kaybeden gibi yazar.",
            "If not ticked, the finisher's partner scores like a loser.",
        ),
    ),
    Param(
        "teams.kafa_halving",
        BOOL,
        "teams",
        ("Eşlide kafada yarım ceza", "Teams: half penalty on a kafa"),
        (
            "Kafa bitişte eşi açmış olan açamayanın cezası yarıya iner.",
            "On a kafa finish, a player who did not open but whose partner did pays half.",
        ),
    ),
    Param(
        "cezali",
        BOOL,
        "penalties",
        ("Cezalı masa", "Table with penalties"),
        (
            f"İşaretli değilse yalnızca {v.CUSTOM_PENALTY.tr} yazılır, elde kalan okey "
            "cezası olmaz ve okey üstündeki sayı kadar sayılır.",
            "If not ticked, only custom penalties are scored, there is no penalty for an okey "
            "left in hand and the okey counts its face value.",
        ),
    ),
    *(
        Param(
            f"penalties.{key}",
            INT,
            "penalties",
            label,
            help_text
            if key == "islek_taken_factor"
            else (f"{help_text[0]} {BLANK_IS_OFF[0]}", f"{help_text[1]} {BLANK_IS_OFF[1]}"),
            1 if key == "islek_taken_factor" else 0,
            MAX_MULTIPLIER if key == "islek_taken_factor" else MAX_AMOUNT,
            nullable=True,
        )
        for key, (label, help_text) in PENALTY_TEXTS.items()
    ),
    Param(
        "penalties.okey_taken_partner_exempt",
        BOOL,
        "penalties",
        ("Okeyi eşine aldırana ceza yok", "No penalty if the partner takes the okey"),
        (
            "Eşli oyunda okeyini eşine aldırana ceza yazılmaz.",
            "In team play, no penalty when the partner took the okey.",
        ),
    ),
    Group(
        "discard_used",
        "penalties",
        ("Attığı taş kullanılırsa ceza", "Penalty when a discard is used"),
        (
            "Attığı taşı sonraki oyuncu seride ya da çiftte kullanırsa taş × aşağıdaki sayı "
            "ceza (Zorlu).",
            "If the next player uses your discard, the penalty is the tile × the number below "
            "(Zorlu).",
        ),
        summary=_discard_used_summary,
    ),
    *(
        Param(
            f"discard_used.{key}",
            INT,
            "penalties",
            label,
            (
                "Ceza: attığı taşın sayısı × bu sayı (okeyde okeyin sayısı).",
                "Penalty: the discarded tile's number × this number (for an okey, the okey's "
                "number).",
            ),
            0,
            MAX_MULTIPLIER,
        )
        for key, label in DISCARD_USED_LABELS.items()
    ),
    Param(
        "cifte_devam_factor",
        INT,
        "penalties",
        ("Çifte devam katı", "Çifte devam multiplier"),
        (
            "Çifte devam deyip açamayanın cezası bu sayıyla çarpılır. Boş = çifte devam yok.",
            "A player who declared çifte devam and did not open has their penalty multiplied "
            "by this number. Empty = no çifte devam.",
        ),
        1,
        MAX_MULTIPLIER,
        nullable=True,
    ),
    Param(
        "opening.series",
        INT,
        "opening",
        ("Seri açılış en az", "Minimum opening with runs/sets"),
        (
            "Seri ya da grup perlerle açmak için gereken puan.",
            "Points needed to open with runs or sets.",
        ),
        1,
        MAX_AMOUNT,
    ),
    Param(
        "opening.pairs",
        INT,
        "opening",
        ("Çift açılış en az", "Minimum opening with pairs"),
        ("Çiftle açmak için gereken çift sayısı.", "Number of pairs needed to open with pairs."),
        1,
        MAX_AMOUNT,
    ),
    Param(
        "opening.raising",
        CHOICE,
        "opening",
        ("Açılış yükseltme", "Raising the opening"),
        (
            "Her açılış bir öncekini geçmeli mi (oyunculara gösterilir).",
            "Whether each opening must beat the one before (shown to players).",
        ),
        choices=(
            (Raising.NONE.value, ("Yok", "None")),
            (Raising.SERIES.value, ("Yalnızca seri", "Runs/sets only")),
            (Raising.BOTH.value, ("Seri ve çift", "Runs/sets and pairs")),
        ),
    ),
    Param(
        "opening_bonus",
        TIERS,
        "opening",
        (capitalize(v.OPENING_BONUS.tr), capitalize(v.OPENING_BONUS.en, "en")),
        (
            "Bu kadar puanla ya da bu kadar çiftle açan, primi (eksi) yazar; yalnızca ulaştığı "
            "en yüksek kademe.",
            "A player who opens with this many points or pairs scores the bonus (negative); "
            "only the highest tier reached.",
        ),
        -MAX_AMOUNT,
        MAX_AMOUNT,
        nullable=True,
    ),
    Param(
        "tiles_dealt",
        CHOICE,
        "match",
        ("Dağıtılan taş", "Tiles dealt"),
        (
            "Kalan taş toplamı 21 taşta en fazla 255, 14 taşta 176 olur.",
            "Tiles left in hand add up to at most 255 with 21 tiles, 176 with 14.",
        ),
        choices=tuple((tiles, (str(tiles), str(tiles))) for tiles in MAX_REMAINING),
    ),
    Param(
        "hands",
        LENGTHS,
        "match",
        ("Maç kaç el olabilir?", "How many hands can a match have?"),
        ("Maçı başlatırken bunlardan biri seçilir.", "One of these is chosen when a match starts."),
        choices=tuple((n, (str(n), str(n))) for n in MATCH_LENGTHS),
    ),
    # --- House-rule extensions (RULES.md): off in every built-in preset ---
    Group(
        "riziko",
        "house",
        ("Riziko", "Riziko"),
        (
            "Gösterge sahte okeyse bitiş tablosunun değerleri bu sayıyla çarpılır; sabit "
            "cezalar çarpılmaz.",
            "When the indicator is a fake okey, the finish table's figures are multiplied by "
            "this number; flat penalties are not.",
        ),
        default=None,
        summary=_riziko_summary,
    ),
    Param(
        "riziko.multiplier",
        INT,
        "house",
        ("Riziko katı", "Riziko multiplier"),
        ("Çoğu masada 2.", "Most tables use 2."),
        1,
        MAX_MULTIPLIER,
    ),
    Group(
        "colours",
        "house",
        ("Renkli", "Colours (renkli)"),
        (
            "Göstergenin rengi eli masanın kendi tablosundaki sayıyla çarpar.",
            "The indicator's colour multiplies the hand by the number in the table's own list.",
        ),
        default=None,
        summary=_colours_summary,
    ),
    *(
        Param(
            f"colours.multipliers.{colour.value}",
            INT,
            "house",
            (
                f"{capitalize(colour_name(colour.value, 'tr'))} ×",
                f"{capitalize(colour_name(colour.value, 'en'), 'en')} ×",
            ),
            COLOUR_HELP,
            1,
            MAX_MULTIPLIER,
        )
        for colour in Colour
    ),
    Param(
        "colours.scope",
        CHOICE,
        "house",
        ("Renk neyi çarpar?", "What does the colour multiply?"),
        (
            "Bitiş tablosunu (riziko gibi) ya da her oyuncunun o eldeki bütün puanını "
            "(cezalar dahil).",
            "The finish table (like riziko) or each player's whole hand score (penalties "
            "included).",
        ),
        choices=SCOPE_CHOICES,
    ),
    Param(
        "last_hand_multiplier",
        INT,
        "house",
        ("Son el katı", "Last hand multiplier"),
        (
            "Maçın son elinde herkesin puanı bu sayıyla çarpılır. Boş = yok.",
            "In the match's last hand every score is multiplied by this number. Empty = none.",
        ),
        1,
        MAX_MULTIPLIER,
        nullable=True,
        default=None,
    ),
)

PARAMS: dict[str, Param] = {item.path: item for item in DECLARATION if isinstance(item, Param)}
GROUPS: dict[str, Group] = {item.path: item for item in DECLARATION if isinstance(item, Group)}


def param(path: str) -> Param | Group:
    return PARAMS.get(path) or GROUPS[path]


def group_of(path: str) -> Group | None:
    """The nearest Group a path lies in (a Param's switch), or None."""
    head = path
    while "." in head:
        head = head.rpartition(".")[0]
        if head in GROUPS:
            return GROUPS[head]
    return None


def params_of(group: Group) -> list[Param]:
    return [p for p in PARAMS.values() if p.path.startswith(group.path + ".")]


def sections() -> Iterator[tuple[Section, list[Param | Group]]]:
    """Each section, in order, with its declared items in declaration order."""
    for section in SECTIONS:
        yield section, [item for item in DECLARATION if item.section == section.key]


# --- Reading a ruleset ----------------------------------------------------------------------


def value_at(rules: Mapping[str, Any] | None, path: str, default: Any = ABSENT) -> Any:
    """The value at a dotted path of a ruleset dict, or `default` where a part is missing."""
    node: Any = rules
    for part in path.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return default
        node = node[part]
    return node


def is_on(rules: Mapping[str, Any], group: Group) -> bool:
    return value_at(rules, group.path, None) is not None


def differences(rules: Mapping[str, Any], base: Mapping[str, Any] | None) -> frozenset[str]:
    """The declared paths (Params and Groups) whose values differ between two rulesets.

    Both are read with missing keys at their defaults, so a ruleset stored before a parameter
    existed does not differ from its preset in it. A Group that is on in one and off in the
    other is marked itself; its fields are compared only when it is on in both.
    """
    if not isinstance(base, Mapping):
        return frozenset()
    changed = set()
    for group in GROUPS.values():
        if is_on(rules, group) != is_on(base, group):
            changed.add(group.path)
    for item in PARAMS.values():
        group = group_of(item.path)
        if group is not None and not (is_on(rules, group) and is_on(base, group)):
            continue
        if _read(rules, item) != _read(base, item):
            changed.add(item.path)
    return frozenset(changed)


def _read(rules: Mapping[str, Any], item: Param) -> Any:
    default = None if item.default in (REQUIRED, ABSENT) else item.default
    return value_at(rules, item.path, default)


# --- Showing a value (the rules pages) ------------------------------------------------------

_WORDS = {
    "tr": {
        "yes": "Evet",
        "no": "Hayır",
        "off": "yok",
        "hands": "el",
        "tier": "{s} puan ya da {p} çift: {points}",
    },
    "en": {
        "yes": "Yes",
        "no": "No",
        "off": "none",
        "hands": "hands",
        "tier": "{s} points or {p} pairs: {points}",
    },
}
MINUS = "\N{MINUS SIGN}"


def show(item: Param | Group, value: Any, lang: str = "tr") -> str:
    """A value as the rules page writes it, e.g. "Evet", "−101", "1, 3, 5 el", "yok"."""
    words = _WORDS[lang]
    if isinstance(item, Group):
        off = value is None or value is ABSENT
        if item.summary is None:  # a switch and nothing more: "Evet" / "Hayır"
            return words["no" if off else "yes"]
        return words["off"] if off else item.summary(value, lang)
    if value is None or value is ABSENT:
        return words["off"]
    kind = item.type
    if kind == BOOL:
        return words["yes" if value else "no"]
    if kind in (CHOICE, COUNTS):
        for choice, text in item.choices:
            if type(choice) is type(value) and choice == value:
                return text[lang == "en"]
        return _number(value)
    if kind == LENGTHS:
        return f"{', '.join(str(n) for n in value)} {words['hands']}"
    if kind == TIERS:
        if not value:
            return words["off"]
        return "; ".join(
            words["tier"].format(s=t["series"], p=t["pairs"], points=_number(t["points"]))
            for t in value
        )
    if kind == INT:
        return _number(value)
    return str(value)


def _number(value: Any) -> str:
    return f"{MINUS}{-value}" if isinstance(value, int) and value < 0 else str(value)
