"""Searches of what members write (`/define`'s term, mentions, replies under a card, Explain
terms) off the event loop, taking turns by server.

Search reads up to 4,000 characters of a message, and a long one costs it about 30 ms on an idle
machine, 100 ms or more on a loaded one; a `/define` term of up to 100 characters that names
nothing, 30-130 ms. On the event loop, 50 accounts posting long replies (or such terms) at once
in one server held up every server for seconds. Here they run in one worker thread (the search
index and the encoder are safe to share between threads), and each server has at most one search
queued or running there: a server flooding long messages waits behind itself, while every other
server's searches take their turn between its (an interaction that must wait is deferred first).
In direct messages each member takes a turn of their own (`turn_of`), as a server does.
`/define` has a worker of its own (`BotState.term_searches`): a flood of long messages does not
delay it, nor a flood of long terms them. A server with MOST_WAITING searches waiting is refused
more until they are done (at 100 ms each, those answers are already 5 s late): a raid queues no
unbounded work; the log says so once a server reaches it (again once none of its searches
wait), and once for all members at their DM cap (again once no DM waits, with their count). A
stopping bot reads no more: searches not yet begun are not run (`stop`); nor those of a server
the bot has left (`forget`).
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")
# Whose turn a search takes: a server's id, or ("dm", member id) for one member's direct messages.
Turn = int | tuple[str, int]

log = logging.getLogger(__name__)

MOST_WAITING = 50  # a server's searches of member text waiting or running, past which none queue
# Direct messages: one member's own (a person asks one thing at a time), and all members' together
# as a multiple of a server's cap (accounts are many more than servers: a raid of them queues no
# unbounded work, as one turn for all DMs ensured).
DM_MOST_WAITING = 5
DMS_TIMES_A_SERVER = 10
ALL_DMS: Turn = ("dms", 0)  # the key all DMs are logged under at their joint cap
# The key members at their own DM cap are logged under: one line a burst, not one a member (a
# raid of 100 accounts wrote 100 before the joint cap's), and a count once DMs drain.
DM_MEMBERS: Turn = ("dm-members", 0)


def turn_of(guild_id: int | None, user_id: int) -> Turn:
    """A server's members take its turn; in direct messages each member takes a turn of their
    own: with one for all DMs, one member flooding the bot's DMs held up every other member's
    (and at MOST_WAITING had them refused). A server left (`forget`) is never a DM's turn."""
    return guild_id if guild_id else ("dm", user_id)


class MemberSearches:
    def __init__(
        self,
        most_waiting: int = MOST_WAITING,
        name: str = "member-search",
        what: str = "members' messages to read (mentions, replies, Explain terms)",
    ) -> None:
        self.most_waiting = most_waiting
        self.what = what  # for the log line of a server at its cap
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
        self._turns: dict[Turn, asyncio.Lock] = {}  # servers with a search queued or waiting
        self._waiting: dict[Turn, int] = {}  # how many of each server's searches are under way
        self._stopped = False
        self._left: set[Turn] = set()  # servers left with searches waiting, until those are done
        self._full: set[Turn] = set()  # servers told of in the log as at their cap
        self._in_dms = 0  # searches under way in all members' DMs
        self._dm_members_full: set[Turn] = set()  # members refused at their cap, this burst

    def idle(self) -> bool:
        """No search under way or waiting, of any server: one asked for now starts at once."""
        return not self._waiting

    def stop(self) -> None:
        """The bot is stopping: searches not yet begun are not run (None), so the answers under
        way end within the stop's deadline. A flood's waiting searches in 20 servers took
        minutes; those answered after the connection closed failed with a traceback each."""
        self._stopped = True
        self._worker.shutdown(wait=False)

    def forget(self, scope: int) -> None:
        """The bot left this server: its searches waiting are not run. 50 waiting in each of 20
        servers ran for nobody (minutes of the worker while the others waited their turn), each
        answer refused by Discord (403: counted against the bot's invalid requests) and logged."""
        if scope in self._waiting:
            self._left.add(scope)

    async def run(self, scope: Turn, search: Callable[..., T], *args: object) -> T | None:
        """`search(*args)` in the worker, after this server's (`scope`'s, `turn_of`) earlier
        searches; None, not searched, while the server has `most_waiting` searches waiting (a
        member in DMs DM_MOST_WAITING, all DMs together DMS_TIMES_A_SERVER times a server's),
        or once stopping."""
        if self._stopped:
            return None
        dm = not isinstance(scope, int)
        if self._waiting.get(scope, 0) >= self._cap(scope):
            if dm:
                self._dm_members_full.add(scope)
            self._refused(
                DM_MEMBERS if dm else scope, self._cap(scope), "one member" if dm else "one server"
            )
            return None
        if dm and self._in_dms >= self.most_waiting * DMS_TIMES_A_SERVER:
            self._refused(ALL_DMS, self.most_waiting * DMS_TIMES_A_SERVER, "all DMs")
            return None
        turn = self._turns.setdefault(scope, asyncio.Lock())
        self._waiting[scope] = self._waiting.get(scope, 0) + 1
        self._in_dms += dm
        try:
            async with turn:
                if self._stopped or scope in self._left:
                    return None
                loop = asyncio.get_running_loop()
                # In this task's context, as `asyncio.to_thread` does: its log lines keep their ids.
                work = functools.partial(
                    contextvars.copy_context().run, self._begin, scope, search, *args
                )
                return await loop.run_in_executor(self._worker, work)
        finally:
            self._waiting[scope] -= 1
            self._in_dms -= dm
            if dm and not self._in_dms:
                self._drained_dms()
            if not self._waiting[scope]:  # a server no longer searching keeps nothing here
                del self._waiting[scope], self._turns[scope]
                self._left.discard(scope)
                self._full.discard(scope)

    def _cap(self, scope: Turn) -> int:
        return (
            self.most_waiting if isinstance(scope, int) else min(self.most_waiting, DM_MOST_WAITING)
        )

    def _drained_dms(self) -> None:
        """No DM searches wait: the burst is over. Its members at their cap were said in one
        line (the first); how many they were is said now, if more than that one."""
        self._full.discard(ALL_DMS)
        self._full.discard(DM_MEMBERS)
        members, self._dm_members_full = len(self._dm_members_full), set()
        if members > 1:
            log.warning(
                "direct messages: %s members were at their cap of %s in that burst (the first "
                "said above); none waiting now",
                f"{members:,}",
                f"{self._cap(DM_MEMBERS):,}",
            )

    def _refused(self, scope: Turn, cap: int, whose: str) -> None:
        """`scope` is at its cap: the log says so once until it drains (a raid would log a line
        a message)."""
        if scope not in self._full:
            self._full.add(scope)
            where = f"server {scope}" if isinstance(scope, int) else "direct messages"
            log.warning(
                "%s: %s %s waiting, the most %s may have: more are refused until some are done "
                "(a flood?)",
                where,
                f"{cap:,}",
                self.what,
                whose,
            )

    def _begin(self, scope: Turn, search: Callable[..., T], *args: object) -> T | None:
        """In the worker: the search, unless the bot began stopping, or left the server, while
        it was queued."""
        return None if self._stopped or scope in self._left else search(*args)
