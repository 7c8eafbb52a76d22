"""Template filters that show what the scoring engine computed, in the page's language."""

import functools

from django import template
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from cetele.language import engine_lang
from scoring import labels

register = template.Library()


@register.simple_tag
def page_assets() -> str:
    """The manifest, icons, style sheet and scripts every page links (templates/_assets.html):
    the same for every request of this process (hashed static names are fixed when it starts),
    so drawn once; they were half the time of drawing base.html."""
    return _page_assets()


@functools.cache
def _page_assets() -> str:
    return mark_safe(render_to_string("_assets.html"))


@register.simple_tag
def field_errors(field, oob: bool = False) -> str:
    """A field's errors, in a container the live preview refreshes out of band (by its id): a
    preview sends one for every field, empty or not, so that a fixed error disappears. (An
    included template did the same at a tenth of the speed, some 40 times a form.)"""
    return format_html(
        '<div id="{}-errors" class="field-errors"{}>{}</div>',
        field.auto_id,
        mark_safe(' hx-swap-oob="true"') if oob else "",
        field.errors or "",
    )


@register.simple_tag
def every_field_errors(entry) -> str:
    """Every visible field's error container of a hand form, out of band (`field_errors`): one
    loop here rather than two in the template, which were two thirds of drawing a preview."""
    return mark_safe(
        "".join(
            field_errors(field, oob=True)
            for form in entry.forms()
            for field in form.visible_fields()
        )
    )


@register.filter
def breakdown(steps) -> str:
    """The engine's steps as one sentence: "107 × 2 (çift açtı) × 2 (okeyle bitiş) + 101 = 529"."""
    return labels.format_breakdown(steps, engine_lang())


@register.filter
def step_text(step) -> str:
    return labels.describe_step(step, engine_lang())


@register.filter
def finish_name(kind: str) -> str:
    return labels.finish_name(kind, engine_lang())


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


@register.filter
def mark_changed(value, changed):
    """The value, marked when it differs from the base ruleset (for sighted and screen readers)."""
    if not changed:
        return value
    return format_html(
        '<mark class="diff">{}<span class="visually-hidden"> ({})</span></mark>',
        value,
        _("değişti"),
    )


FINISH_ORDER = ("normal", "kafa", "pairs", "okey", "okey_kafa", "pairs_okey", "pairs_kafa", "none")


@register.filter
def ordered_finishes(finishes) -> list:
    """A finish table's (kind, row) pairs in RULES.md's order, whatever order the JSON came in
    (PostgreSQL's jsonb sorts object keys)."""
    if not isinstance(finishes, dict):
        return []
    known = [(kind, finishes[kind]) for kind in FINISH_ORDER if kind in finishes]
    return known + [(k, row) for k, row in finishes.items() if k not in FINISH_ORDER]
