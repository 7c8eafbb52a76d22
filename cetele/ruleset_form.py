"""The preset editor's form: one field per parameter of RULES.md's "Ruleset parameters".

Its field names are the ruleset's paths joined by "__", so that an engine error's path names
the field it belongs to; the engine (`scoring.resolve_rules`) decides what is valid.
"""

import re
from collections.abc import Mapping

from django import forms
from django.utils.translation import gettext_lazy as _

import scoring
from cetele.language import engine_lang
from scoring import labels
from scoring.model import PENALTY_AMOUNT_KEYS as PENALTY_KEYS

# Finish rows every ruleset has, in RULES.md's order; `pairs_kafa` only where a table allows it.
FINISH_KINDS = ("normal", "kafa", "pairs", "okey", "okey_kafa", "pairs_okey", "none")
PAIRS_KAFA = "pairs_kafa"
FINISH_COLUMNS = ("winner", "opened_multiplier", "not_opened")
DISCARD_USED_KEYS = ("series", "pairs", "okey_series", "okey_pairs")
BONUS_COLUMNS = ("series", "pairs", "points")
BONUS_ROWS = 3
MATCH_LENGTHS = (1, 3, 5, 7, 9, 11, 13)
SIGNED = {"autocomplete": "off", "class": "num"}  # a minus sign must be typeable
UNSIGNED = {"inputmode": "numeric", "autocomplete": "off", "class": "num"}

FINISH_HELP = {
    "normal": _("Seri açıp biten"),
    "kafa": _("Açtığı elde biten (elden)"),
    "pairs": _("Çift açıp biten"),
    "okey": _("Son taş olarak okey atan"),
    "okey_kafa": _("Elden ve okey atarak biten"),
    "pairs_okey": _("Çift açıp okey atarak biten"),
    "pairs_kafa": _("Çift açıp açtığı elde biten"),
    "none": _("Taşlar bitti, kimse bitmedi"),
}
FINISH_COLUMN_LABELS = {
    "winner": _("Bitiren"),
    "opened_multiplier": _("Açan ×"),
    "not_opened": _("Açamayan"),
}
FINISH_COLUMN_HELP = {
    "winner": _("Bitirenin yazdığı (0 ya da eksi)."),
    "opened_multiplier": _("Açıp kaybedenin eldeki taşları bu sayıyla çarpılır."),
    "not_opened": _("Açamayanın yazdığı sabit ceza."),
}
PENALTY_LABELS = {
    "okey_discard": (_("Okey atmak"), _("Okeyi bitiş taşı olmadan yere atmak.")),
    "islek_discard": (_("İşlek taş atmak"), _("Masadaki bir pere işlenebilecek taşı atmak.")),
    "islek_taken_factor": (
        _("İşlek taş alınırsa taş ×"),
        _("Sonraki oyuncu işlek taşı aldıysa ceza taş × bu sayı olur. Boş = hep sabit ceza."),
    ),
    "take_back": (_("Taş geri almak"), _("Açtığı perleri ya da işlediği taşları geri almak.")),
    "failed_open": (_("Açış tutmadı"), _("Yetmeyen açışı geri toplamak.")),
    "okey_taken": (_("Okeyi aldırmak"), _("Perdeki okeyini başka bir oyuncuya aldırmak.")),
    "side_take_unused": (
        _("Yandan alıp kullanmamak"),
        _("Soldakinin attığı taşı alıp o el kullanmamak."),
    ),
    "okey_from_per_unused": (
        _("Perden okey alıp işlememek"),
        _("Perden aldığı okeyi o el yere koymamak."),
    ),
}
DISCARD_USED_LABELS = {
    "series": _("Taş seriye işlenirse ×"),
    "pairs": _("Taş çifte işlenirse ×"),
    "okey_series": _("Okey seriye işlenirse ×"),
    "okey_pairs": _("Okey çifte işlenirse ×"),
}
BONUS_LABELS = {"series": _("Puanla"), "pairs": _("Çiftle"), "points": _("Prim")}
BLANK_IS_OFF = _("Boş bırakılırsa bu ceza yok.")


def rule_field(*path: object) -> str:
    """The editor's field name for a ruleset path: ("finishes", "okey", "winner") →
    "finishes__okey__winner", so that an engine error's path names its field."""
    return "__".join(str(part) for part in path)


def number(
    label, help_text="", *, required=True, signed=False, described_by=""
) -> forms.IntegerField:
    attrs = dict(SIGNED if signed else UNSIGNED)
    if described_by:  # a table cell: its column's explanation, shown once above the table
        attrs["aria-describedby"] = described_by
    return forms.IntegerField(
        label=label,
        help_text=help_text,
        required=required,
        widget=forms.NumberInput(attrs=attrs),
    )


def switch(label, help_text="") -> forms.BooleanField:
    return forms.BooleanField(label=label, help_text=help_text, required=False)


class RulesetForm(forms.Form):
    """The preset editor: one field per parameter of RULES.md's "Ruleset parameters".

    `initial_from_rules` fills it from a full ruleset; a valid form has `ruleset`, the full
    ruleset the engine accepted (`scoring.resolve_rules` decides; its errors are shown next to
    the field they name). The prefix keeps its names apart from the match form's.
    """

    prefix = "r"

    name = forms.CharField(
        label=_("Adı"),
        max_length=80,
        help_text=_("Maçta ve paylaştığınız bağlantıda görünür."),
    )
    description = forms.CharField(
        label=_("Açıklama"),
        max_length=500,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("İsteğe bağlı: masanızda neyin farklı olduğu."),
    )
    kafa_requires_nobody_opened = switch(
        _("Kafa için kimse açmamış olmalı"),
        _("İşaretliyse başka bir oyuncu açmışken kafa (elden) bitiş olmaz."),
    )
    pair_opener_multiplier = number(
        _("Çift açanın katı"), _("Çift açıp kaybedenin taşları ayrıca bu sayıyla çarpılır.")
    )
    pair_opener_over__on = switch(
        _("Çift açan sınırı geçerse ceza"),
        _("Çift açanın taş toplamı (çarpmadan önce) sınırı geçerse üstüne ceza yazılır."),
    )
    pair_opener_over__threshold = number(
        _("Sınır"), _("Örneğin 100: 100'ü geçen toplam cezalıdır."), required=False
    )
    pair_opener_over__penalty = number(
        _("Sınırı geçme cezası"), _("Çarpılmadan eklenir."), required=False
    )
    okey_left__counts_mode = forms.ChoiceField(
        label=_("Elde kalan okey nasıl sayılır?"),
        choices=[("face", _("Üstündeki sayı kadar")), ("fixed", _("Sabit bir değer"))],
        widget=forms.RadioSelect,
        help_text=_("Sayılan değer eldeki taşlara eklenir ve onlarla birlikte çarpılır."),
    )
    okey_left__counts = number(
        _("Okeyin sabit değeri"),
        _("Yalnızca “sabit bir değer” seçiliyse: örneğin 101, ya da hiç sayılmasın diye 0."),
        required=False,
    )
    okey_left__penalty = number(
        _("Elde kalan okey cezası"),
        _("Cezalı masada elde kalan her okey için üstüne eklenir, çarpılmaz. 0 = yok."),
    )
    okey_left__fake_too = switch(
        _("Sahte okey de cezalı"), _("İşaretliyse elde kalan sahte okeye de bu ceza yazılır.")
    )
    teams__winner_partner_zero = switch(
        _("Eşlide bitirenin eşi 0 yazar"),
        _("İşaretli değilse bitirenin eşi de kaybeden gibi yazar."),
    )
    teams__kafa_halving = switch(
        _("Eşlide kafada yarım ceza"),
        _("Kafa bitişte eşi açmış olan açamayanın cezası yarıya iner."),
    )
    cezali = switch(
        _("Cezalı masa"),
        _("İşaretli değilse yalnızca serbest cezalar yazılır ve elde kalan okey cezası olmaz."),
    )
    penalties__okey_taken_partner_exempt = switch(
        _("Okeyi eşi alırsa ceza yok"), _("Eşli oyunda okeyi eşi aldıysa ceza yazılmaz.")
    )
    discard_used__on = switch(
        _("Attığı taş işlenirse ceza"),
        _("Attığı taşı sonraki oyuncu işlerse taş × aşağıdaki sayı ceza (Zorlu)."),
    )
    cifte_devam_factor = number(
        _("Çifte devam katı"),
        _("Çifte devam deyip açamayanın cezası bu sayıyla çarpılır. Boş = çifte devam yok."),
        required=False,
    )
    opening__series = number(
        _("Seri açılış en az"), _("Seri ya da grup perlerle açmak için gereken puan.")
    )
    opening__pairs = number(_("Çift açılış en az"), _("Çiftle açmak için gereken çift sayısı."))
    opening__raising = forms.ChoiceField(
        label=_("Açılış yükseltme"),
        choices=[
            ("none", _("Yok")),
            ("series", _("Yalnızca seri")),
            ("both", _("Seri ve çift")),
        ],
        widget=forms.RadioSelect,
        help_text=_("Her açılış bir öncekini geçmeli mi (oyunculara gösterilir)."),
    )
    tiles_dealt = forms.TypedChoiceField(
        label=_("Dağıtılan taş"),
        choices=[(21, "21"), (14, "14")],
        coerce=int,
        widget=forms.RadioSelect,
        help_text=_("Kalan taş toplamı 21 taşta en fazla 255, 14 taşta 176 olur."),
    )
    hands = forms.TypedMultipleChoiceField(
        label=_("Maç kaç el olabilir?"),
        choices=[(n, str(n)) for n in MATCH_LENGTHS],
        coerce=int,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Maçı başlatırken bunlardan biri seçilir."),
        error_messages={"required": _("En az bir maç uzunluğu seçin.")},
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for kind in (*FINISH_KINDS, PAIRS_KAFA):
            for column in FINISH_COLUMNS:
                if kind == "none" and column == "winner":
                    continue  # nobody wins when nobody finished
                self.fields[rule_field("finishes", kind, column)] = number(
                    f"{labels.finish_name(kind, engine_lang())} — {FINISH_COLUMN_LABELS[column]}",
                    required=kind != PAIRS_KAFA,
                    signed=column == "winner",
                    described_by=f"help-{column}",
                )
        self.fields[rule_field("finishes", PAIRS_KAFA, "on")] = switch(
            _("Çiftten kafa olur"),
            _("Çift açan, açtığı elde bitebilir (hazır kuralların hiçbirinde yok)."),
        )
        for key in PENALTY_KEYS:
            label, help_text = PENALTY_LABELS[key]
            if key != "islek_taken_factor":
                help_text = f"{help_text} {BLANK_IS_OFF}"
            self.fields[rule_field("penalties", key)] = number(label, help_text, required=False)
        for key in DISCARD_USED_KEYS:
            self.fields[rule_field("discard_used", key)] = number(
                DISCARD_USED_LABELS[key],
                _("Ceza: attığı taşın sayısı × bu sayı (okeyde okeyin sayısı)."),
                required=False,
            )
        for row in range(BONUS_ROWS):
            for column in BONUS_COLUMNS:
                self.fields[rule_field("opening_bonus", row, column)] = number(
                    f"{_('Açış primi')} {row + 1} — {BONUS_LABELS[column]}",
                    required=False,
                    signed=column == "points",
                    described_by="help-bonus",
                )
        self.ruleset: dict | None = None
        self._bonus_rows: list[int] = []

    # --- Layout (the template walks these) ---

    def finish_rows(self) -> list[tuple[str, str, list]]:
        """(kind, explanation, [winner, multiplier, not opened] bound fields or None)."""
        return [
            (
                kind,
                FINISH_HELP[kind],
                [
                    self[name]
                    if (name := rule_field("finishes", kind, column)) in self.fields
                    else None
                    for column in FINISH_COLUMNS
                ],
            )
            for kind in (*FINISH_KINDS[:-1], PAIRS_KAFA, FINISH_KINDS[-1])
        ]

    def finish_columns(self) -> list[tuple[str, str, str]]:
        """(column, heading, explanation) of the finish table."""
        return [(c, FINISH_COLUMN_LABELS[c], FINISH_COLUMN_HELP[c]) for c in FINISH_COLUMNS]

    def bonus_columns(self) -> list[str]:
        return [BONUS_LABELS[column] for column in BONUS_COLUMNS]

    def bonus_rows(self) -> list[list]:
        return [
            [self[rule_field("opening_bonus", row, column)] for column in BONUS_COLUMNS]
            for row in range(BONUS_ROWS)
        ]

    def sections(self) -> list[tuple[str, str, list]]:
        """(key, title, bound fields) for each group of the editor below the finish table."""
        groups = [
            ("name", _("Ad"), ["name", "description"]),
            (
                "kafa",
                _("Kafa"),
                ["kafa_requires_nobody_opened", rule_field("finishes", PAIRS_KAFA, "on")],
            ),
            (
                "pairs",
                _("Çift açan"),
                [
                    "pair_opener_multiplier",
                    "pair_opener_over__on",
                    "pair_opener_over__threshold",
                    "pair_opener_over__penalty",
                ],
            ),
            (
                "okey_left",
                _("Elde kalan okey"),
                [
                    "okey_left__counts_mode",
                    "okey_left__counts",
                    "okey_left__penalty",
                    "okey_left__fake_too",
                ],
            ),
            ("teams", _("Eşli oyun"), ["teams__winner_partner_zero", "teams__kafa_halving"]),
            (
                "penalties",
                _("Cezalar"),
                [
                    "cezali",
                    *(rule_field("penalties", key) for key in PENALTY_KEYS),
                    "penalties__okey_taken_partner_exempt",
                    "discard_used__on",
                    *(rule_field("discard_used", key) for key in DISCARD_USED_KEYS),
                    "cifte_devam_factor",
                ],
            ),
            ("opening", _("Açılış"), ["opening__series", "opening__pairs", "opening__raising"]),
            ("match", _("Taş ve maç"), ["tiles_dealt", "hands"]),
        ]
        return [(key, title, [self[name] for name in names]) for key, title, names in groups]

    # --- From a ruleset and back ---

    @staticmethod
    def initial_from_rules(rules: Mapping, *, name: str | None = None) -> dict:
        """Initial values from a full ruleset dict (a preset's or a house preset's)."""
        initial: dict = {"name": rules.get("name", "") if name is None else name}
        finishes = rules.get("finishes", {})
        for kind, row in finishes.items():
            for column, value in row.items():
                initial[rule_field("finishes", kind, column)] = value
        initial[rule_field("finishes", PAIRS_KAFA, "on")] = PAIRS_KAFA in finishes
        initial["kafa_requires_nobody_opened"] = rules.get("kafa_requires_nobody_opened")
        initial["pair_opener_multiplier"] = rules.get("pair_opener_multiplier")
        over = rules.get("pair_opener_over")
        initial["pair_opener_over__on"] = bool(over)
        if over:
            initial["pair_opener_over__threshold"] = over.get("threshold")
            initial["pair_opener_over__penalty"] = over.get("penalty")
        okey_left = rules.get("okey_left", {})
        counts = okey_left.get("counts", "face")
        initial["okey_left__counts_mode"] = "face" if counts == "face" else "fixed"
        initial["okey_left__counts"] = None if counts == "face" else counts
        initial["okey_left__penalty"] = okey_left.get("penalty")
        initial["okey_left__fake_too"] = okey_left.get("fake_too")
        for key, value in rules.get("teams", {}).items():
            initial[rule_field("teams", key)] = value
        initial["cezali"] = rules.get("cezali")
        for key, value in rules.get("penalties", {}).items():
            initial[rule_field("penalties", key)] = value
        discard_used = rules.get("discard_used")
        initial["discard_used__on"] = bool(discard_used)
        for key, value in (discard_used or {}).items():
            initial[rule_field("discard_used", key)] = value
        initial["cifte_devam_factor"] = rules.get("cifte_devam_factor")
        for row, tier in enumerate((rules.get("opening_bonus") or [])[:BONUS_ROWS]):
            for column in BONUS_COLUMNS:
                initial[rule_field("opening_bonus", row, column)] = tier.get(column)
        for key, value in rules.get("opening", {}).items():
            initial[rule_field("opening", key)] = value
        initial["tiles_dealt"] = rules.get("tiles_dealt")
        initial["hands"] = list(rules.get("hands", []))
        return initial

    def clean(self) -> dict:
        cleaned = super().clean()
        pairs_kafa = [rule_field("finishes", PAIRS_KAFA, c) for c in FINISH_COLUMNS]
        self._require_if(rule_field("finishes", PAIRS_KAFA, "on"), pairs_kafa)
        self._require_if(
            "pair_opener_over__on", ["pair_opener_over__threshold", "pair_opener_over__penalty"]
        )
        self._require_if(
            "discard_used__on", [rule_field("discard_used", key) for key in DISCARD_USED_KEYS]
        )
        if cleaned.get("okey_left__counts_mode") == "fixed":
            self._require(["okey_left__counts"])
        self._bonus_rows = self._filled_bonus_rows()
        if self.errors:
            return cleaned
        try:
            self.ruleset = scoring.resolve_rules(self.build_rules(cleaned))
        except scoring.InvalidHand as error:
            self.add_engine_error(error)
        return cleaned

    def _require(self, names: list[str]) -> None:
        for name in names:
            if name not in self.errors and self.cleaned_data.get(name) is None:
                self.add_error(name, self.fields[name].error_messages["required"])

    def _require_if(self, switch_name: str, names: list[str]) -> None:
        if self.cleaned_data.get(switch_name):
            self._require(names)

    def _filled_bonus_rows(self) -> list[int]:
        """Indexes of the tier rows filled in; a half-filled row is an error."""
        filled = []
        for row in range(BONUS_ROWS):
            names = [rule_field("opening_bonus", row, column) for column in BONUS_COLUMNS]
            if any(name in self.errors for name in names):
                continue
            values = [self.cleaned_data.get(name) for name in names]
            if all(value is None for value in values):
                continue
            if any(value is None for value in values):
                for name, value in zip(names, values, strict=True):
                    if value is None:
                        self.add_error(
                            name,
                            _("Bu kademenin üç değerini de girin ya da hepsini boş bırakın."),
                        )
                continue
            filled.append(row)
        return filled

    def build_rules(self, c: dict) -> dict:
        """The full ruleset dict the fields describe (not yet validated)."""
        kinds = [*FINISH_KINDS]
        if c.get(rule_field("finishes", PAIRS_KAFA, "on")):
            kinds.append(PAIRS_KAFA)
        finishes = {
            kind: {
                column: c[rule_field("finishes", kind, column)]
                for column in FINISH_COLUMNS
                if rule_field("finishes", kind, column) in self.fields
            }
            for kind in kinds
        }
        counts_face = c["okey_left__counts_mode"] == "face"
        tiers = [
            {column: c[rule_field("opening_bonus", row, column)] for column in BONUS_COLUMNS}
            for row in self._bonus_rows
        ]
        return {
            "name": c["name"],
            "finishes": finishes,
            "kafa_requires_nobody_opened": c["kafa_requires_nobody_opened"],
            "pair_opener_multiplier": c["pair_opener_multiplier"],
            "pair_opener_over": (
                {
                    "threshold": c["pair_opener_over__threshold"],
                    "penalty": c["pair_opener_over__penalty"],
                }
                if c["pair_opener_over__on"]
                else None
            ),
            "okey_left": {
                "counts": "face" if counts_face else c["okey_left__counts"],
                "penalty": c["okey_left__penalty"],
                "fake_too": c["okey_left__fake_too"],
            },
            "teams": {
                "winner_partner_zero": c["teams__winner_partner_zero"],
                "kafa_halving": c["teams__kafa_halving"],
            },
            "cezali": c["cezali"],
            "penalties": {
                **{key: c[rule_field("penalties", key)] for key in PENALTY_KEYS},
                "okey_taken_partner_exempt": c["penalties__okey_taken_partner_exempt"],
            },
            "discard_used": (
                {key: c[rule_field("discard_used", key)] for key in DISCARD_USED_KEYS}
                if c["discard_used__on"]
                else None
            ),
            "cifte_devam_factor": c["cifte_devam_factor"],
            "opening_bonus": tiers or None,
            "opening": {
                "series": c["opening__series"],
                "pairs": c["opening__pairs"],
                "raising": c["opening__raising"],
            },
            "tiles_dealt": c["tiles_dealt"],
            "hands": sorted(c["hands"]),
        }

    def field_for_path(self, path: str) -> str | None:
        """The field an engine error path names: "rules.finishes.okey.winner" →
        "finishes__okey__winner"; "rules.opening_bonus[1].series" → the form row it came from."""
        path = path.removeprefix("rules").removeprefix(".")
        tier = re.fullmatch(r"opening_bonus\[(\d+)\](?:\.(\w+))?", path)
        if tier and int(tier[1]) < len(self._bonus_rows):
            column = tier[2] if tier[2] in BONUS_COLUMNS else "series"
            return rule_field("opening_bonus", self._bonus_rows[int(tier[1])], column)
        name = re.sub(r"\[\d+\]", "", path).replace(".", "__")
        while name and name not in self.fields:
            name = name.rpartition("__")[0]
        return name or None

    def add_engine_error(self, error) -> None:
        """Show the engine's message next to the field it names (without the path prefix)."""
        lang = engine_lang()
        message = error.message_en if lang == "en" else error.message
        where = labels.human_field(error.field, lang)
        if message.startswith(where + ": "):
            message = message[len(where) + 2 :]
            message = message[:1].upper() + message[1:]
        elif message.startswith(where + " "):
            message = _("Bu değer") + message[len(where) :]
        self.add_error(self.field_for_path(error.field), message)

    def error_lines(self) -> list[str]:
        """Every error as "Label: message", for the summary above the form."""
        lines = [str(error) for error in self.non_field_errors()]
        for name, errors in self.errors.items():
            if name in self.fields:
                lines.extend(f"{self.fields[name].label}: {error}" for error in errors)
        return lines
