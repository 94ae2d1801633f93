"""Gateway events delivered twice (Discord replaying them, across a RESUME say) are read once,
before discord.py makes anything of them. An interaction read twice was counted twice against
its member's limit, searched again, and its second answer refused by Discord (40060, logged as
an error); a mention read twice was answered with a second card."""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

READ_ONCE = ("INTERACTION_CREATE", "MESSAGE_CREATE")  # events whose `id` is the thing's own
# Seconds an id is remembered after it arrived. A replay comes on a RESUME, which Discord takes
# only for a short time after a connection drops (minutes; the number is not documented); a
# session not resumed by then starts anew and replays nothing. Bounded by time, not by a count:
# 10,000 ids were 10 s of a busy bot's messages (every server message arrives, its text withheld),
# so a replay after a minute's outage was read again. A bot taking 100 events a second remembers
# 60,000 ids (some 11 MB).
REMEMBERED_FOR = 600.0


class RecentIds:
    def __init__(
        self, seconds: float = REMEMBERED_FOR, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.seconds = seconds
        self.clock = clock
        self._ids: OrderedDict[int, float] = OrderedDict()  # id -> when it arrived, oldest first

    def first(self, event_id: int) -> bool:
        """Whether `event_id` is new (and now remembered)."""
        now = self.clock()
        while self._ids and next(iter(self._ids.values())) < now - self.seconds:
            self._ids.popitem(last=False)
        if event_id in self._ids:
            return False
        self._ids[event_id] = now
        return True

    def __len__(self) -> int:
        return len(self._ids)


def read_once(parsers: dict[str, Callable[[Any], None]]) -> None:
    """Wrap discord.py's parsers of READ_ONCE's events: one delivered again is dropped."""
    for event in READ_ONCE:
        parsers[event] = _once(event, parsers[event])


def _once(event: str, parse: Callable[[Any], None]) -> Callable[[Any], None]:
    seen = RecentIds(clock=lambda: clock())

    def parse_once(data: Any) -> None:
        if seen.first(int(data["id"])):
            parse(data)
        else:
            log.info("%s %s delivered again: dropped, it was read once", event, data["id"])

    return parse_once


def clock() -> float:
    """The clock ids are remembered by (a test moves it on)."""
    return time.monotonic()
