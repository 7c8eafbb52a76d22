"""The load test's delivery delay (bench/loadtest): from a save's answer to the moment a watching
phone is shown the save's version. With push a viewer is often shown it before the answer has
reached the scorer, and the scorer's own page may hold it before its poll after the save asks
(204): both must count, as 0 s and as the time the viewer was shown it, not be left out (the
fastest deliveries dropped would make push look slower than it is)."""

import asyncio
import time

from bench.loadtest.actions import PhoneActions
from bench.loadtest.figures import Step, delays
from bench.loadtest.phones import Phone, Table

HEAD = b"HTTP/1.1 200 OK\r\n\r\n"


class Answers(PhoneActions):
    """The phones' requests answered in turn from a list (no server)."""

    def __init__(self, answers: list[tuple[int, bytes]]) -> None:
        super().__init__(port=0)
        self.answers = answers

    async def http(self, request: bytes) -> tuple[int, bytes, bytes]:
        status, body = self.answers.pop(0)
        return status, HEAD, body


def sheet(version: int) -> tuple[int, bytes]:
    return 200, f'<section id="sheet" hx-get="/v/x/poll/?v={version}">'.encode()


def table_of_two(known: int) -> tuple[Table, Phone, Phone]:
    scorer, viewer = Phone("m", "edit", known=known), Phone("v", "view", known=4)
    return Table("edit", "view", 4, phones=[scorer, viewer]), scorer, viewer


def test_a_viewer_shown_the_version_before_the_save_answered_counts_as_no_delay():
    table, scorer, viewer = table_of_two(known=4)
    actions = Answers([sheet(5), sheet(5)])
    step = Step(1, 1)

    async def play() -> None:
        await actions.poll(step, table, viewer, time.monotonic())  # its stream came first
        await asyncio.sleep(0.01)
        saved = time.monotonic()  # then the save's answer, and the scorer's page asks
        await actions.poll(step, table, scorer, saved, saved_at=saved)

    asyncio.run(play())

    assert delays([table]) == [0.0]


def test_a_save_its_own_page_already_shows_still_counts_for_the_viewers():
    table, scorer, viewer = table_of_two(known=5)  # the scorer's stream brought version 5
    actions = Answers([(204, b""), sheet(5)])
    step = Step(1, 1)

    async def play() -> tuple[float, float]:
        saved = time.monotonic()
        await actions.poll(step, table, scorer, saved, saved_at=saved)  # 204: nothing newer
        await asyncio.sleep(0.05)
        await actions.poll(step, table, viewer, time.monotonic())
        return saved, time.monotonic()

    saved, shown = asyncio.run(play())

    [delay] = delays([table])
    assert 0.05 <= delay <= shown - saved
