"""Whether Discord's REST API answers: the gateway can stay up while every answer the bot posts
fails (Discord's servers answering 5xx, or not at all). `health` reports it without turning
unhealthy, since restarting the bot would not mend Discord."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import aiohttp

from bot.discord_app import written

log = logging.getLogger(__name__)


class RestWatch:
    """Counts the REST requests that failed since the last one Discord answered (any status
    under 500 is an answer, a refusal included). Fed by an aiohttp trace on discord.py's
    session, which carries every request: commands' answers, follow-ups and channel posts."""

    def __init__(
        self, clock: Callable[[], float] = time.time, turned: Callable[[], None] = lambda: None
    ) -> None:
        self._clock = clock
        self._turned = turned  # told when Discord's API starts failing or answers again
        # From login on: before it, Discord out of reach stops `run` with its own one line.
        self.watching = False
        self.failing_since: float | None = None
        self.failures = 0
        self.last_failure = ""

    def answered(self) -> None:
        if self.failing_since is not None:
            log.info(
                "Discord's API answers again (%s requests failed since %s)",
                f"{self.failures:,}",
                _utc(self.failing_since),
            )
            self._turned()
        self.failing_since, self.failures, self.last_failure = None, 0, ""

    def failed(self, what: str) -> None:
        if self.failing_since is None:
            self.failing_since = self._clock()
            log.warning(
                "Discord's API is failing (%s): answers are lost until it recovers; the bot "
                "stays up and `health` healthy, since a restart would not help",
                what,
            )
        self.failures += 1
        self.last_failure = what
        if self.failures == 1:  # after its count and words: the heartbeat reads them
            self._turned()

    def note(self) -> str | None:
        """What `health` adds while Discord's API fails, else None."""
        if self.failing_since is None:
            return None
        return (
            f"but Discord's API has failed every request since {_utc(self.failing_since)} "
            f"({self.failures}, the last {self.last_failure}): answers are lost until Discord "
            "recovers, and a restart would not help"
        )

    def trace(self) -> aiohttp.TraceConfig:
        """The trace to give discord.py (`http_trace`): REST requests only, not the gateway;
        it marks the requests of a send too (`written`)."""
        config = aiohttp.TraceConfig()

        async def ended(_: Any, __: SimpleNamespace, params: Any) -> None:
            if self.watching and params.url.scheme in ("http", "https"):
                status = params.response.status
                if status >= 500:
                    self.failed(f"{status} {params.response.reason}")
                else:
                    self.answered()

        async def raised(_: Any, __: SimpleNamespace, params: Any) -> None:
            # Cancelled: the bot stopped waiting (Discord's 3 s for a first answer, a stop),
            # which says nothing of Discord.
            cancelled = isinstance(params.exception, asyncio.CancelledError)
            if self.watching and params.url.scheme in ("http", "https") and not cancelled:
                self.failed(type(params.exception).__name__)

        config.on_request_end.append(ended)
        config.on_request_exception.append(raised)
        written.watch(config)
        return config


def _utc(when: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(when))
