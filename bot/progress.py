"""Progress of long command-line work (check, aliases import, backup, migrate-db) on a terminal.

One line on stderr, redrawn in place at most every `interval` seconds and wiped when the work
ends, so the command's own output is all that stays. Silent when stderr is not a terminal (a
pipe, a log file, cron) or with `--quiet`.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from types import TracebackType
from typing import TextIO

CLEAR_LINE = "\r\x1b[2K"


class Progress:
    def __init__(
        self,
        label: str,
        total: int | None = None,
        *,
        quiet: bool = False,
        stream: TextIO | None = None,
        interval: float = 0.1,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.label = label
        self.total = total
        self.done = 0
        self.stream = stream or sys.stderr
        self.enabled = not quiet and _is_terminal(self.stream)
        self.interval = interval
        self.clock = clock
        self._shown_at: float | None = None

    def advance(self, n: int = 1) -> None:
        self.update(self.done + n)

    def update(self, done: int, total: int | None = None) -> None:
        """`done` of `total` units so far (the total may become known, or change, on the way)."""
        self.done = done
        if total is not None:
            self.total = total
        if not self.enabled:
            return
        now = self.clock()
        finished = self.total is not None and done >= self.total
        if self._shown_at is not None and now - self._shown_at < self.interval and not finished:
            return
        self._shown_at = now
        self.stream.write(CLEAR_LINE + self.line())
        self.stream.flush()

    def stage(self, label: str) -> None:
        """The next of `total` stages begins (check: reading, merging, checking)."""
        self.label = label
        self._shown_at = None  # a new stage is always shown
        self.advance()

    def show(self, label: str, done: int, total: int | None = None) -> None:
        """`update` under `label`: shown at once when the label is new (migrate-db: the
        table being copied)."""
        if label != self.label:
            self.label = label
            self._shown_at = None
        self.update(done, total)

    def message(self, text: str) -> None:
        """A line of the command's own (an error, say) that must not be drawn over."""
        if self.enabled and self._shown_at is not None:
            self.stream.write(CLEAR_LINE)
            self._shown_at = None  # redrawn by the next update
        self.stream.write(text + "\n")
        self.stream.flush()

    def line(self) -> str:
        if not self.total:
            return f"{self.label}: {self.done:,}" if self.done else f"{self.label}…"
        percent = min(100, 100 * self.done // self.total)
        return f"{self.label}: {self.done:,}/{self.total:,} ({percent}%)"

    def close(self) -> None:
        if self.enabled and self._shown_at is not None:
            self.stream.write(CLEAR_LINE)
            self.stream.flush()
        self.enabled = False  # a late word (prune's batch finishing after Ctrl-C) draws nothing

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False
