"""Template filters that show what the scoring engine computed, in the page's language."""

import functools
from dataclasses import dataclass
from numbers import Number

from django import template
from django.conf import settings
from django.template.loader import render_to_string
from django.utils.formats import localize
from django.utils.safestring import mark_safe

from cetele.shell.language import engine_lang
from scoring import labels

register = template.Library()


@register.simple_tag
def page_assets() -> str:
    """The manifest, icons, style sheet and scripts every page links, and how long the scripts
    wait for a write's answer (templates/_assets.html): the same for every request of this
    process (hashed static names and settings are fixed when it starts), so drawn once. Measured
    again (issue 55, hashed static files, DEBUG off): 0.145 ms to draw, nothing kept; the match
    page's whole server time is about 3 ms (docs/performance.md), so keeping it still saves ~5%."""
    return _page_assets()


@functools.cache
def _page_assets() -> str:
    unanswered_ms = settings.CETELE_UNANSWERED_SECONDS * 1000
    return mark_safe(render_to_string("_assets.html", {"unanswered_ms": unanswered_ms}))


@dataclass(frozen=True)
class PreviewLine:
    name: str
    score: int
    breakdown: list  # the engine's steps (the |breakdown filter makes them a sentence)


@register.simple_tag
def preview_lines(entry) -> list[PreviewLine]:
    """Each player of a hand that scores, with their score and how it was made, in seating
    order (the preview, _hand_fields.html#hand_preview)."""
    result = entry.result
    return [
        PreviewLine(player.name, score, steps)
        for player, score, steps in zip(
            entry.players, result["scores"], result["breakdown"], strict=True
        )
    ]


@register.filter
def breakdown(steps) -> str:
    """The engine's steps as one sentence: "107 × 2 (çift açtı) × 2 (okeyle bitiş) + 101 = 529"."""
    return labels.format_breakdown(steps, engine_lang())


@register.filter
def finish_name(kind: str) -> str:
    return labels.finish_name(kind, engine_lang())


@register.filter
def score(value):
    """A score, total or average as the breakdowns print it: "−303", "−12,5" (the minus sign,
    not a hyphen; the decimal mark of the page's language)."""
    if isinstance(value, bool) or not isinstance(value, Number):
        return value
    text = localize(abs(value))
    return f"{labels.MINUS}{text}" if value < 0 else text


@register.filter
def at(sequence, index):
    """sequence[index] in a template (scores by seat)."""
    try:
        return sequence[index]
    except (IndexError, KeyError, TypeError):
        return ""


@register.filter
def names_at(players, seats) -> list[str]:
    """The names of the players at these seats, in seating order: "Ayşe, Can" for a tie, joined
    in the template with a comma so that two names never read as one person's."""
    return [player.name for player in players if player.seat in seats]


@register.filter
def penalty_name(kind: str) -> str:
    return labels.penalty_name(kind, engine_lang()) if kind in labels.PENALTY_NAMES["tr"] else kind


FINISH_ORDER = ("normal", "kafa", "pairs", "okey", "okey_kafa", "pairs_okey", "pairs_kafa", "none")


@register.filter
def ordered_finishes(finishes) -> list:
    """A finish table's (kind, row) pairs in RULES.md's order, whatever order the JSON came in
    (PostgreSQL's jsonb sorts object keys)."""
    if not isinstance(finishes, dict):
        return []
    known = [(kind, finishes[kind]) for kind in FINISH_ORDER if kind in finishes]
    return known + [(k, row) for k, row in finishes.items() if k not in FINISH_ORDER]


@register.filter
def lira(kurus: int) -> str:
    """A price in kuruş as lira, by the page's locale ("12,50 ₺"; cetele.tea)."""
    from cetele.tea.tally import lira as as_lira

    return as_lira(kurus)
