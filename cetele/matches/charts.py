"""The match as a picture: the running totals, hand by hand, drawn on the server as SVG.

`match_chart` turns the sheet's running totals (scoring.sheet.tally: nothing is added up here)
into a `Chart` of plain coordinates, and `chart_drawing` into where each line, tick and mark
goes; templates/cetele/matches/_chart.html draws that as a few kilobytes of SVG. No JavaScript
and no style attributes (our CSP forbids them): colours, dashes and dark mode come from app.css
through classes; the presentation attributes only keep the lines unfilled when CSS is missing.
Screen readers get the title and a description with every total.
"""

import math
from dataclasses import dataclass

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


@dataclass(frozen=True)
class Tick:
    y: float
    text_y: float  # its label's baseline, centred on the line
    text: str  # the total it stands for, "−200"
    zero: bool


@dataclass(frozen=True)
class HandLabel:
    x: float
    hand: int


@dataclass(frozen=True)
class Line:
    series: int  # the line's colour class, s0…s3
    leader: bool
    points: str  # "x,y x,y …": the SVG polyline's points, one per total
    values: str  # the totals as plain integers, "0 12 -3" (its data-values)
    end_x: float
    end_y: float


@dataclass(frozen=True)
class Mark:
    series: int
    title: str  # "3. el: Okeyle bitiş (Can)"
    x: float
    y: float
    text_y: float  # the letters, above the point but inside the drawing
    letters: str


@dataclass(frozen=True)
class Drawing:
    """Everything templates/cetele/matches/_chart.html draws, as numbers and words: where each tick,
    line and mark goes. The template writes the SVG."""

    title: str
    description: str
    ticks: tuple[Tick, ...]
    hands: tuple[HandLabel, ...]
    lines: tuple[Line, ...]  # in drawing order: the leaders last, so their thicker lines are on top
    marks: tuple[Mark, ...]
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT  # where the grid lines end
    tick_x: int = LEFT - 4  # the value labels, right-aligned before the plot
    hand_y: int = HEIGHT - 6  # the hand numbers, under the plot


def chart_drawing(chart: Chart, *, finish_names: dict[str, str], names: list[str]) -> Drawing:
    """The chart's coordinates for the template. `finish_names` labels the markers (kind → name
    in the page's language); `names` are the players by seat, to say who finished."""
    ticks = tuple(
        Tick(chart.y(tick), chart.y(tick) + 3.5, signed(tick), tick == 0) for tick in chart.ticks
    )
    hands = tuple(HandLabel(chart.x(hand), hand) for hand in hand_labels(chart.hands))
    order = sorted(range(len(chart.series)), key=lambda i: (chart.series[i].leader, i))
    lines = []
    for index in order:
        line = chart.series[index]
        points = " ".join(
            f"{chart.x(hand)},{chart.y(value)}" for hand, value in enumerate(line.values)
        )
        lines.append(
            Line(
                series=index,
                leader=line.leader,
                points=points,
                values=" ".join(map(str, line.values)),
                end_x=chart.x(chart.hands),
                end_y=chart.y(line.values[-1]),
            )
        )
    marks = []
    for marker in chart.markers:
        value = chart.series[marker.series].values[marker.hand]
        x, y = chart.x(marker.hand), chart.y(value)
        title = mark_sentence(marker, finish_names, names)
        marks.append(Mark(marker.series, title, x, y, max(y - 7, TOP + 2), marker.letters))
    return Drawing(
        title=_("Eller boyunca toplamlar"),
        description=describe(chart, finish_names, names),
        ticks=ticks,
        hands=hands,
        lines=tuple(lines),
        marks=tuple(marks),
    )


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
