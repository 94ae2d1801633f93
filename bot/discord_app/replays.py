"""Gateway events delivered twice (Discord replaying them, across a RESUME say) are read once,
before discord.py makes anything of them. An interaction read twice was counted twice against
its member's limit, searched again, and its second answer refused by Discord (40060, logged as
an error); a mention read twice was answered with a second card."""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

READ_ONCE = ("INTERACTION_CREATE", "MESSAGE_CREATE")  # events whose `id` is the thing's own
# Ids remembered of each: a replay follows the first delivery within seconds (a RESUME), and
# an interaction's answer is refused past Discord's 3 s anyway; at 1,000 events a second this
# is 10 s of them.
MAX_REMEMBERED = 10_000


class RecentIds:
    def __init__(self, most: int = MAX_REMEMBERED) -> None:
        self.most = most
        self._ids: OrderedDict[int, None] = OrderedDict()

    def first(self, event_id: int) -> bool:
        """Whether `event_id` is new (and now remembered)."""
        if event_id in self._ids:
            return False
        self._ids[event_id] = None
        if len(self._ids) > self.most:
            self._ids.popitem(last=False)
        return True


def read_once(parsers: dict[str, Callable[[Any], None]]) -> None:
    """Wrap discord.py's parsers of READ_ONCE's events: one delivered again is dropped."""
    for event in READ_ONCE:
        parsers[event] = _once(event, parsers[event])


def _once(event: str, parse: Callable[[Any], None]) -> Callable[[Any], None]:
    seen = RecentIds()

    def parse_once(data: Any) -> None:
        if seen.first(int(data["id"])):
            parse(data)
        else:
            log.info("%s %s delivered again: dropped, it was read once", event, data["id"])

    return parse_once
