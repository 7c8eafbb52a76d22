"""The match as a picture: the running totals, hand by hand, drawn on the server as SVG.

`match_chart` turns the sheet's running totals (scoring.sheet.tally: nothing is added up here)
into a `Chart` of plain coordinates; `chart_svg` writes it as a few kilobytes of SVG. No
JavaScript and no style attributes (our CSP forbids them): colours, dashes and dark mode come
from app.css through classes; the presentation attributes only keep the lines unfilled when
CSS is missing. Screen readers get the title and a description with every total.
"""

import math
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from cetele.matches.stats import PlayedHand, finish_traits
from cetele.shell.language import engine_lang
from scoring.sentences import signed
from scoring.sheet import Sheet

# The drawing's own units; the SVG scales to the width of the page (320 px phones included).
WIDTH, HEIGHT = 320, 180
LEFT, RIGHT, TOP, BOTTOM = 40, 10, 10, 22
PLOT_W, PLOT_H = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
MAX_TICKS = 5

# A mark above the finisher's point for the finishes worth remembering.
# By language: the legend under the chart explains them in the page's words (P: pairs finish).
TRAIT_LETTERS = {
    "tr": {"pairs": "Ç", "okey": "O", "kafa": "K"},
    "en": {"pairs": "P", "okey": "O", "kafa": "K"},
}


@dataclass(frozen=True)
class Series:
    label: str
    values: tuple[int, ...]  # 0 before the first hand, then the total after each hand
    leader: bool

    @property
    def total(self) -> int:
        return self.values[-1]


@dataclass(frozen=True)
class Marker:
    hand: int  # 1-based position on the sheet
    series: int
    finish: str
    letters: str
    finisher: int  # seat


@dataclass(frozen=True)
class Chart:
    series: tuple[Series, ...]
    markers: tuple[Marker, ...]
    low: int  # the value axis runs from `low` to `high`, both ticks
    high: int
    step: int

    @property
    def hands(self) -> int:
        return len(self.series[0].values) - 1 if self.series else 0

    def x(self, hand: int) -> float:
        return round(LEFT + hand * PLOT_W / max(self.hands, 1), 1)

    def y(self, value: int) -> float:
        return round(TOP + (self.high - value) * PLOT_H / (self.high - self.low), 1)

    def value_at(self, y: float) -> float:
        """The total a height stands for (the inverse of `y`, for checking the drawing)."""
        return self.high - (y - TOP) * (self.high - self.low) / PLOT_H

    @property
    def ticks(self) -> list[int]:
        return list(range(self.low, self.high + 1, self.step))


def nice_scale(low: int, high: int) -> tuple[int, int, int]:
    """An axis from a round number to a round number, in at most MAX_TICKS steps of 1, 2 or 5
    × a power of ten, holding 0, `low` and `high`."""
    low, high = min(low, 0), max(high, 0)
    if low == high:
        high = low + 1
    span = high - low
    magnitude = 10 ** max(0, math.floor(math.log10(span / MAX_TICKS)))
    for factor in (1, 2, 5, 10, 20, 50):
        step = factor * magnitude
        start, end = math.floor(low / step) * step, math.ceil(high / step) * step
        if (end - start) / step <= MAX_TICKS:
            return start, end, step
    raise AssertionError("unreachable: 50 × magnitude covers the span in five steps")


def match_chart(labels: list[str], sheet: Sheet, teams: bool, hands: list[PlayedHand]) -> Chart:
    """One line per player (per team in team play) through the sheet's running totals, and a
    marker on the finisher's line where a hand was an okey, pairs or kafa finish."""
    if teams:
        columns = list(zip(*(row.team_running for row in sheet.rows), strict=True))
        leaders = sheet.team_leaders
    else:
        columns = list(zip(*(row.running for row in sheet.rows), strict=True))
        leaders = sheet.leaders
    if not columns:
        columns = [()] * len(labels)
    series = tuple(
        Series(label, (0, *column), index in leaders and bool(sheet.rows))
        for index, (label, column) in enumerate(zip(labels, columns, strict=True))
    )
    markers = []
    letter_of = TRAIT_LETTERS[engine_lang()]
    for position, hand in enumerate(hands, start=1):
        letters = "".join(
            letter_of[trait] for trait in finish_traits(hand.finish) if trait in letter_of
        )
        if letters and hand.finisher is not None:
            line = hand.finisher % 2 if teams else hand.finisher
            markers.append(Marker(position, line, hand.finish, letters, hand.finisher))
    every = [value for line in series for value in line.values]
    low, high, step = nice_scale(min(every, default=0), max(every, default=0))
    return Chart(series, tuple(markers), low, high, step)


def chart_svg(chart: Chart, *, finish_names: dict[str, str], names: list[str]) -> SafeString:
    """The chart as inline SVG. `finish_names` labels the markers (kind → name in the page's
    language); `names` are the players by seat, to say who finished."""
    title = _("Eller boyunca toplamlar")
    parts = [
        f'<svg class="chart-svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        'aria-labelledby="chart-title chart-desc" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="chart-title">{escape(title)}</title>',
        f'<desc id="chart-desc">{escape(describe(chart, finish_names, names))}</desc>',
    ]
    for tick in chart.ticks:
        y = chart.y(tick)
        kind = "chart-zero" if tick == 0 else "chart-grid"
        parts.append(f'<line class="{kind}" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y}" y2="{y}"/>')
        parts.append(f'<text class="chart-tick" x="{LEFT - 4}" y="{y + 3.5}">{signed(tick)}</text>')
    for hand in hand_labels(chart.hands):
        x = chart.x(hand)
        parts.append(f'<text class="chart-hand" x="{x}" y="{HEIGHT - 6}">{hand}</text>')
    # The leaders last, so that their thicker lines are drawn on top.
    order = sorted(range(len(chart.series)), key=lambda i: (chart.series[i].leader, i))
    for index in order:
        line = chart.series[index]
        points = " ".join(
            f"{chart.x(hand)},{chart.y(value)}" for hand, value in enumerate(line.values)
        )
        leader = " leader" if line.leader else ""
        parts.append(
            f'<polyline class="chart-line s{index}{leader}" fill="none" stroke="currentColor" '
            f'points="{points}" data-values="{" ".join(map(str, line.values))}"/>'
        )
        end = (chart.x(chart.hands), chart.y(line.values[-1]))
        parts.append(
            f'<circle class="chart-end s{index}{leader}" cx="{end[0]}" cy="{end[1]}" r="3"/>'
        )
    for marker in chart.markers:
        value = chart.series[marker.series].values[marker.hand]
        x, y = chart.x(marker.hand), chart.y(value)
        title = escape(mark_sentence(marker, finish_names, names))
        parts.append(
            f'<g class="chart-mark s{marker.series}"><title>{title}</title>'
            f'<circle cx="{x}" cy="{y}" r="4.5"/>'
            f'<text x="{x}" y="{max(y - 7, TOP + 2)}">{escape(marker.letters)}</text></g>'
        )
    parts.append("</svg>")
    return mark_safe("".join(parts))  # every text inside went through escape()


def hand_labels(hands: int) -> list[int]:
    """Which hand numbers to print under the axis: all of a short match, fewer of a long one."""
    if hands == 0:
        return []
    every = max(1, math.ceil(hands / 12))
    labels = list(range(every, hands + 1, every))
    if labels[-1] != hands:
        labels.append(hands)
    return labels


def describe(chart: Chart, finish_names: dict[str, str], names: list[str]) -> str:
    """The chart in words for screen readers: every line's totals, the leader, the marks."""
    sentences = []
    for line in chart.series:
        totals = ", ".join(signed(value) for value in line.values[1:]) or "0"
        sentence = _("%(name)s: %(totals)s") % {"name": line.label, "totals": totals}
        if line.leader:
            sentence += " (" + _("önde") + ")"
        sentences.append(sentence)
    for marker in chart.markers:
        sentences.append(mark_sentence(marker, finish_names, names))
    return ". ".join(sentences) + "."


def mark_sentence(marker: Marker, finish_names: dict[str, str], names: list[str]) -> str:
    """ "3. el: Okeyle bitiş (Can)" """
    return _("%(hand)s. el: %(finish)s (%(name)s)") % {
        "hand": marker.hand,
        "finish": finish_names.get(marker.finish, marker.finish),
        "name": names[marker.finisher],
    }
