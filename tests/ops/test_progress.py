"""Progress on a terminal, silence elsewhere."""

from __future__ import annotations

import io
import os
import select
from collections.abc import Iterator

import pytest

from bot.progress import CLEAR_LINE, Progress


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def terminal() -> Iterator[tuple[io.TextIOWrapper, int]]:
    """A real terminal (a pseudo-terminal pair): what the command writes, and where to read it."""
    leader, follower = os.openpty()
    stream = os.fdopen(follower, "w", encoding="utf-8")
    try:
        yield stream, leader
    finally:
        stream.close()
        os.close(leader)


def read_all(fd: int) -> str:
    """Everything written to the terminal so far (a terminal hands it over in pieces)."""
    chunks = []
    while select.select([fd], [], [], 0.2)[0]:
        chunks.append(os.read(fd, 65536))
    return b"".join(chunks).decode()


def test_on_a_terminal_one_line_is_redrawn_then_wiped(
    terminal: tuple[io.TextIOWrapper, int],
) -> None:
    stream, leader = terminal
    clock = Clock()
    with Progress("checking", 300, stream=stream, clock=clock) as progress:
        assert progress.enabled
        for _ in range(300):
            progress.advance()
            clock.now += 0.001  # 0.3 s in all: redrawn every 0.1 s, not 300 times
    text = read_all(leader)
    frames = text.split(CLEAR_LINE)
    assert frames[1] == "checking: 1/300 (0%)"
    assert "checking: 300/300 (100%)" in frames
    assert 3 <= len(frames) - 2 <= 6  # a handful of redraws, then the final wipe
    assert frames[-1] == ""
    assert "\n" not in text


def test_not_a_terminal_or_quiet_prints_nothing(terminal: tuple[io.TextIOWrapper, int]) -> None:
    pipe = io.StringIO()
    with Progress("importing", 10, stream=pipe) as progress:
        progress.update(10)
    assert pipe.getvalue() == ""
    stream, leader = terminal
    with Progress("importing", 10, stream=stream, quiet=True) as progress:
        progress.update(10)
    stream.write("end")
    stream.flush()
    assert read_all(leader) == "end"


def test_an_unknown_or_changing_total_is_shown_as_a_count(
    terminal: tuple[io.TextIOWrapper, int],
) -> None:
    stream, leader = terminal
    clock = Clock()
    with Progress("copying pages", stream=stream, clock=clock, interval=0) as progress:
        progress.update(5000)
        progress.update(7000, total=14000)
    frames = read_all(leader).split(CLEAR_LINE)
    assert frames[1:3] == ["copying pages: 5,000", "copying pages: 7,000/14,000 (50%)"]


def test_a_closed_stream_is_not_a_terminal() -> None:
    stream = io.StringIO()
    stream.close()
    assert not Progress("x", stream=stream).enabled
