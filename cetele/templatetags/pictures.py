"""The match as a picture and as a summary, for the sheet (match.html#sheet) to show.

Both tags read what the sheet's context already holds (`hands`: cetele.tables.season.PlayedHand
in order, `sheet`: scoring.sheet.tally's totals), so they cost no query and follow every live
update of the sheet. The figures come from cetele.matches.charts and cetele.matches.stats;
nothing is computed here.
"""

from dataclasses import dataclass

from django import template

from cetele.matches.charts import Drawing, Series, chart_drawing, match_chart
from cetele.matches.stats import match_summary, side_names
from cetele.shell.language import engine_lang
from scoring import labels

register = template.Library()


def _parts(context) -> tuple[list[str], bool, list]:
    names = [player.name for player in context["players"]]
    return names, context["match"].teams, context["hands"]


@dataclass(frozen=True)
class Picture:
    drawing: Drawing
    lines: tuple[Series, ...]
    marks: bool


@register.simple_tag(takes_context=True)
def match_picture(context) -> Picture:
    """The running totals as a drawing (templates/cetele/matches/_chart.html), with the lines for
    the legend."""
    names, teams, hands = _parts(context)
    chart = match_chart(list(side_names(names, teams)), context["sheet"], teams, hands)
    finish_names = labels.FINISH_NAMES[engine_lang()]
    drawing = chart_drawing(chart, finish_names=finish_names, names=names)
    return Picture(drawing, chart.series, bool(chart.markers))


@dataclass(frozen=True)
class Line:
    place: int
    name: str
    total: int
    winner: bool


@dataclass(frozen=True)
class Summary:
    winners: list[str]
    drawn: bool
    lines: list[Line]
    biggest_position: int | None
    biggest_finish: str
    biggest_finisher: str
    biggest_top_name: str
    biggest_top_score: int | None
    top_finishers: list[str]
    top_finishes: int


@register.simple_tag(takes_context=True)
def match_summary_for(context) -> Summary:
    """Winner, final totals by place, the biggest hand, who finished most often — by name."""
    names, teams, hands = _parts(context)
    summary = match_summary(names, teams, hands, context["sheet"])
    biggest = summary.biggest
    return Summary(
        winners=[summary.sides[side] for side in summary.winners],
        drawn=summary.drawn,
        lines=[
            Line(
                summary.places[side],
                summary.sides[side],
                summary.totals[side],
                side in summary.winners,
            )
            for side in summary.order
        ],
        biggest_position=biggest.position if biggest else None,
        # Inside a sentence ("1. el, okeyle bitiş (Ayşe)"): the reason's lower-case form.
        biggest_finish=labels.FINISH_REASONS[engine_lang()][str(biggest.finish)] if biggest else "",
        biggest_finisher=names[biggest.finisher]
        if biggest and biggest.finisher is not None
        else "",
        biggest_top_name=names[biggest.top_seat] if biggest else "",
        biggest_top_score=biggest.top_score if biggest else None,
        top_finishers=[names[seat] for seat in summary.top_finishers],
        top_finishes=summary.top_finishes,
    )
