"""Template filters that show what the scoring engine computed, in the page's language."""

import functools
import html
from numbers import Number

from django import template
from django.template.loader import render_to_string
from django.utils.formats import localize
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from cetele.shell.language import engine_lang
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
    preview with an error sends one for every field, empty or not, so that a fixed error
    disappears; one that scores empties them all at once (_hand_fields.html#hand_preview). (An
    included template did the same at a tenth of the speed, some 40 times a form.)"""
    return error_container(field.auto_id, field.errors, oob)


def error_container(html_id: str, errors, oob: bool) -> str:
    return format_html(
        '<div id="{}-errors" class="field-errors"{}>{}</div>',
        html_id,
        mark_safe(' hx-swap-oob="true"') if oob else "",
        errors or "",
    )


@register.simple_tag
def every_field_errors(entry) -> str:
    """Every visible field's error container of a hand form, out of band (`field_errors`), as
    one string: a preview with an error sends some forty, nearly all empty, and making a bound
    field for each (for its id and its errors) was a fifth of a preview's time. The id is the
    bound field's (BoundField.auto_id: the form's auto_id, "id_%s", filled with the prefixed
    name)."""
    parts = []
    for form in entry.forms():
        errors = form.errors
        for name, field in form.fields.items():
            if field.widget.is_hidden:
                continue
            html_id = form.auto_id % form.add_prefix(name)
            if name in errors:
                parts.append(error_container(html_id, errors[name], oob=True))
            else:
                parts.append(EMPTY_ERRORS_OOB.format(escape(html_id)))
    return mark_safe("".join(parts))


EMPTY_ERRORS_OOB = '<div id="{}-errors" class="field-errors" hx-swap-oob="true"></div>'


@register.simple_tag
def preview_scores(entry) -> str:
    """The preview of a hand that scores: how it ended, each player's score, and how each was
    made. Written out here, every value escaped, as every_field_errors is, because it is drawn
    at every tap while a hand is typed: the template's two loops over the players were most of
    drawing it, and format_html_join half of what was left."""
    result = entry.result
    lang = engine_lang()
    names = [html.escape(player.name) for player in entry.players]
    scores = " · ".join(
        f'<span class="nowrap">{name} <strong>{html.escape(labels.signed(score))}</strong></span>'
        for name, score in zip(names, result["scores"], strict=True)
    )
    steps = "".join(
        f"<li>{name}: {html.escape(labels.format_breakdown(breakdown, lang))}</li>"
        for name, breakdown in zip(names, result["breakdown"], strict=True)
    )
    finish = html.escape(labels.finish_name(result["finish"], lang))
    return mark_safe(
        f'<details><summary><span class="finish">{finish}:</span> {scores}</summary>'
        f'<ul class="breakdown small">{steps}</ul></details>'
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
def score(value):
    """A score, total or average as the breakdowns print it: "−303", "−12,5" (the minus sign,
    not a hyphen; the decimal mark of the page's language)."""
    if type(value) is int:
        # What localize() gives an integer without thousands separators (USE_THOUSAND_SEPARATOR
        # is off), at a fraction of its cost: the sheet prints one per cell.
        return labels.signed(value)
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
