"""Template filters that show what the scoring engine computed, in the page's language."""

from django import template
from django.utils.translation import get_language

from scoring import labels

register = template.Library()


def _lang() -> str:
    return "en" if (get_language() or "tr").startswith("en") else "tr"


@register.filter
def breakdown(steps) -> str:
    """The engine's steps as one sentence: "107 × 2 (çift açtı) × 2 (okeyle bitiş) + 101 = 529"."""
    return labels.format_breakdown(steps, _lang())


@register.filter
def step_text(step) -> str:
    return labels.describe_step(step, _lang())


@register.filter
def finish_name(kind: str) -> str:
    return labels.finish_name(kind, _lang())


@register.filter
def at(sequence, index):
    """sequence[index] in a template (scores by seat)."""
    try:
        return sequence[index]
    except (IndexError, KeyError, TypeError):
        return ""


@register.filter
def penalty_name(kind: str) -> str:
    return labels.penalty_name(kind, _lang()) if kind in labels.PENALTY_NAMES["tr"] else kind
