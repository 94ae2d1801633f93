"""What discord.py cannot read of what Discord sends, mended where discord.py reads it; and
what it gets wrong of when the gateway answers.

Imported by `app` before any message is parsed; each mend says why and is kept as narrow as the
fault.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from discord.gateway import DiscordWebSocket
from discord.poll import Poll

log = logging.getLogger(__name__)

# Gateway events the bot cannot go on without: a READY not read leaves it no user and no servers.
MUST_READ = frozenset({"READY"})
MAX_FAULTS_SAID = 1_000  # kinds of unreadable event remembered as logged (past it, each is)

_poll_from_data = Poll._from_data.__func__  # type: ignore[attr-defined]


def _poll_that_may_never_end(cls: type[Poll], *, data: Any, message: Any, state: Any) -> Poll:
    """A poll's `expiry` is null for a poll that never ends (Discord's docs: nullable "to support
    non-expiring polls in the future"). discord.py works the poll's duration out of it and
    raises a TypeError, in the gateway's reader (which drops the connection) or before a
    command sees its message. Such a poll is read as ending when it was posted (a duration of
    0), then given back its missing expiry."""
    if data.get("expiry") is not None:
        return _poll_from_data(cls, data=data, message=message, state=state)  # type: ignore[no-any-return]
    timed = {**data, "expiry": message.created_at.isoformat()}
    poll: Poll = _poll_from_data(cls, data=timed, message=message, state=state)
    poll._expiry = None
    return poll


Poll._from_data = classmethod(_poll_that_may_never_end)  # type: ignore[assignment, method-assign]


_send_heartbeat = DiscordWebSocket.send_heartbeat


async def _heartbeat_timed_as_sent(self: DiscordWebSocket, data: Any) -> None:
    """discord.py's keep-alive thread notes when a heartbeat was sent once it sees the send
    done, and its ACK is timed from that note. A gateway that answers at once (the fake, a
    gateway proxy beside the bot) has the ACK read on the event loop before the thread wakes:
    timed from the heartbeat before, every ACK read as a heartbeat interval late, "Can't keep
    up, shard ID None websocket is 41.3s behind" logged at each, and the bot's latency metric
    (glossary_gateway_latency_seconds) 41 s. The send is noted on the loop as it is made (the
    thread notes it again once done): discord.py's own fix of this came after 2.7.1."""
    keep_alive = self._keep_alive
    if keep_alive is not None:
        keep_alive._last_send = time.perf_counter()
    await _send_heartbeat(self, data)


DiscordWebSocket.send_heartbeat = _heartbeat_timed_as_sent  # type: ignore[method-assign]


def skip_unreadable_events(parsers: dict[str, Callable[[Any], None]]) -> None:
    """discord.py reads each gateway event in its connection's reader and catches nothing there:
    any exception ends `connect()`, so one payload it cannot read (a field Discord sends in a
    shape it does not know) stopped the bot. Each parser (the narrowest place: the reader's own
    faults, RECONNECT and closes, keep their handling) now skips such an event, with one line
    for each kind of fault: a field in a new shape comes in every such event (each message)."""
    said: set[tuple[str, str, str]] = set()  # (event, exception, place) logged already
    for event, parse in list(parsers.items()):
        if event not in MUST_READ:
            parsers[event] = _skipping(event, parse, said)


def _skipping(
    event: str, parse: Callable[[Any], None], said: set[tuple[str, str, str]]
) -> Callable[[Any], None]:
    def parse_or_skip(data: Any) -> None:
        try:
            parse(data)
        except Exception as exc:  # whatever it is: one event is lost, not the connection
            # The type and where it was raised, not the message: it may quote what members wrote.
            fault = (event, type(exc).__name__, _raised_at(exc))
            if fault in said:
                return
            if len(said) < MAX_FAULTS_SAID:
                said.add(fault)
            log.error(
                "skipped a %s event from Discord that discord.py could not read (%s at %s); "
                "more like it are skipped without a line",
                *fault,
            )

    return parse_or_skip


def _raised_at(exc: BaseException) -> str:
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None:
        return "an unknown place"
    path = Path(tb.tb_frame.f_code.co_filename)
    return f"{path.parent.name}/{path.name}:{tb.tb_lineno}"
