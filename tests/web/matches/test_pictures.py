"""The match as a picture (cetele.matches.charts) and its end-of-match summary, on the pages that
show the sheet: the chart's points are read back from the SVG and checked against the sheet's
totals."""

import re
from xml.etree import ElementTree

import pytest
from django.urls import reverse

from cetele.matches.charts import HEIGHT, PLOT_H, TOP, Chart, nice_scale
from scoring.sheet import tally
from tests.factories import add_hand, make_match, sample_inputs

pytestmark = pytest.mark.django_db

SVG = "{http://www.w3.org/2000/svg}"


def chart_of(html: str) -> ElementTree.Element:
    found = re.search(r"<svg class=\"chart-svg\".*?</svg>", html, re.S)
    assert found, "no chart on the page"
    return ElementTree.fromstring(found.group(0))


def axis(svg: ElementTree.Element) -> tuple[int, int]:
    """The value axis as the drawing labels it: (lowest tick, highest tick)."""
    labels = [text.text for text in svg.iter(SVG + "text") if text.get("class") == "chart-tick"]
    ticks = [int(label.replace("−", "-")) for label in labels]  # printed with the minus sign
    return min(ticks), max(ticks)


def lines(svg: ElementTree.Element) -> dict[int, ElementTree.Element]:
    found = {}
    for line in svg.iter(SVG + "polyline"):
        series = re.search(r"\bs(\d)\b", line.get("class"))
        found[int(series.group(1))] = line
    return found


def heights(line: ElementTree.Element) -> list[float]:
    return [float(point.split(",")[1]) for point in line.get("points").split()]


def okey_finish(finisher: int) -> dict:
    inputs = sample_inputs(4, finisher=finisher, remaining=12)
    inputs["okey_finish"] = True
    return inputs


def test_the_charts_points_are_the_sheets_running_totals(client):
    match = make_match(hands=6)
    hands = list(match.hands.all())
    sheet = tally([hand.scores for hand in hands], 4, False)

    svg = chart_of(
        client.get(reverse("matches:match_detail", args=[match.edit_token])).content.decode()
    )

    low, high = axis(svg)
    drawn = lines(svg)
    assert sorted(drawn) == [0, 1, 2, 3]
    for seat, line in drawn.items():
        expected = [0] + [row.running[seat] for row in sheet.rows]
        # Read each point's height back into a total with the axis the picture itself labels.
        read = [high - (y - TOP) * (high - low) / PLOT_H for y in heights(line)]
        assert read == pytest.approx(expected, abs=(high - low) / PLOT_H)
        assert line.get("data-values").split() == [str(total) for total in expected]


def test_team_play_draws_one_line_per_team_through_the_team_totals(client):
    match = make_match(teams=True, hands=4)
    sheet = tally([hand.scores for hand in match.hands.all()], 4, True)

    svg = chart_of(
        client.get(reverse("matches:match_detail", args=[match.edit_token])).content.decode()
    )

    drawn = lines(svg)
    assert sorted(drawn) == [0, 1]
    for team, line in drawn.items():
        expected = [0] + [row.team_running[team] for row in sheet.rows]
        assert line.get("data-values").split() == [str(total) for total in expected]


def test_the_leader_is_marked_and_so_are_okey_finishes_on_the_finishers_line(client):
    match = make_match()
    add_hand(match, sample_inputs(4, finisher=0, remaining=30))  # normal: no mark
    add_hand(match, okey_finish(2))
    sheet = tally([hand.scores for hand in match.hands.all()], 4, False)

    html = client.get(reverse("matches:match_detail", args=[match.edit_token])).content.decode()
    svg = chart_of(html)

    leaders = [seat for seat, line in lines(svg).items() if "leader" in line.get("class")]
    assert leaders == sorted(sheet.leaders)
    marks = [g for g in svg.iter(SVG + "g") if "chart-mark" in g.get("class")]
    assert len(marks) == 1
    assert "s2" in marks[0].get("class").split()
    assert marks[0].find(SVG + "text").text == "O"
    assert "2. el: Okeyle bitiş (Can)" in marks[0].find(SVG + "title").text


def test_the_chart_has_a_text_alternative_and_nothing_the_csp_would_refuse(client):
    match = make_match(hands=13)

    html = client.get(reverse("matches:match_detail", args=[match.edit_token])).content.decode()
    svg_text = re.search(r"<svg class=\"chart-svg\".*?</svg>", html, re.S).group(0)
    svg = ElementTree.fromstring(svg_text)

    assert svg.get("role") == "img"
    assert svg.get("aria-labelledby") == "chart-title chart-desc"
    description = svg.find(SVG + "desc").text
    for name in ("Ali", "Ayşe", "Can", "Deniz"):
        assert name in description
    assert "style=" not in svg_text and "<script" not in svg_text
    assert len(svg_text.encode()) < 6_000  # "a few kilobytes" for a 13-hand match


def test_the_chart_is_on_the_view_link_and_in_the_live_update(client):
    match = make_match(hands=2)

    page = client.get(reverse("sharing:view_match", args=[match.view_token])).content.decode()
    poll = client.get(reverse("sharing:view_poll", args=[match.view_token]), {"v": "stale"})

    assert "chart-svg" in page
    assert poll.status_code == 200
    assert "chart-svg" in poll.content.decode()


def test_no_chart_before_the_first_hand(client):
    match = make_match()

    assert (
        "chart-svg"
        not in client.get(reverse("matches:match_detail", args=[match.edit_token])).content.decode()
    )


@pytest.mark.parametrize(
    ("low", "high", "scale"),
    [
        (0, 0, (0, 1, 1)),
        (-101, 202, (-200, 300, 100)),
        (-404, 1616, (-500, 2000, 500)),
        (0, 3, (0, 3, 1)),
        (50, 90, (0, 100, 20)),
    ],
)
def test_the_value_axis_runs_between_round_numbers_through_zero(low, high, scale):
    start, end, step = nice_scale(low, high)

    assert (start, end, step) == scale
    assert start <= min(low, 0) and end >= max(high, 0)
    assert (end - start) // step <= 5


def test_a_height_reads_back_as_its_total():
    chart = Chart(series=(), markers=(), low=-200, high=300, step=100)

    assert chart.y(300) == TOP and chart.y(-200) == HEIGHT - 22
    assert chart.value_at(chart.y(55)) == pytest.approx(55, abs=0.5)


# --- The summary ------------------------------------------------------------------------------


def test_a_finished_match_shows_a_summary_with_winner_totals_biggest_hand_and_finishers(client):
    match = make_match(planned_hands=3)
    add_hand(match, sample_inputs(4, finisher=0, remaining=30))
    add_hand(match, okey_finish(2))
    add_hand(match, sample_inputs(4, finisher=0, remaining=5))
    sheet = tally([hand.scores for hand in match.hands.all()], 4, False)
    winner = ["Ali", "Ayşe", "Can", "Deniz"][min(sheet.leaders)]

    html = client.get(reverse("matches:match_detail", args=[match.edit_token])).content.decode()

    summary = re.search(r'<section class="card summary".*?</section>', html, re.S).group(0)
    assert "Maçın özeti" in summary and winner in summary
    for total in sheet.totals:
        assert f"<strong>{total}</strong>" in summary
    # Hand 2, the okey finish, spreads its scores the widest.
    assert "2. el, okeyle bitiş (Can)" in summary
    assert "Ali (2 kez)" in summary
    # "Rövanş" is an action: beside "Maç bitti", outside the live sheet every phone shares.
    finished = re.search(r'<div id="hand-form" class="card">.*?</div>', html, re.S).group(0)
    assert "Maç bitti" in finished and "Rövanş" in finished
    assert reverse("tables:match_rematch", args=[match.edit_token]) in finished


def test_the_view_link_shows_the_summary_without_the_rematch_button(client):
    match = make_match(planned_hands=1, hands=1)

    html = client.get(reverse("sharing:view_match", args=[match.view_token])).content.decode()

    assert "Maçın özeti" in html
    assert "Rövanş" not in html and "rovans" not in html


def test_no_summary_while_the_match_goes_on(client):
    match = make_match(planned_hands=3, hands=2)

    assert (
        "Maçın özeti"
        not in client.get(reverse("matches:match_detail", args=[match.edit_token])).content.decode()
    )
