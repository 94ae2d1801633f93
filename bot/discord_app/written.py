"""Whether the request a task is sending has reached Discord: a stop that cancels an answer at
its deadline for answers can cut it after Discord took the message (the card is shown) and
before its answer came back. The aiohttp trace on discord.py's session marks it (`watch`);
`sending()` reads it for one send."""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import aiohttp


class Sending:
    """One send's requests, as the trace saw them: `written` once a request has gone out and
    while no refusal (a status of 400 or more: Discord showed nothing) came back for it;
    `refused`, the last such status (a 429 waited out, a 5xx tried again), for the log."""

    def __init__(self) -> None:
        self.written = False
        self.refused: int | None = None


_SENDING: contextvars.ContextVar[Sending | None] = contextvars.ContextVar("sending", default=None)


@contextlib.contextmanager
def sending() -> Iterator[Sending]:
    """The requests made inside the block, by this task (discord.py awaits them in it); inside
    another send's block (`respond_in_time` in `send_counted`), that send's, as they are its."""
    outer = _SENDING.get()
    if outer is not None:
        yield outer
        return
    seen = Sending()
    token = _SENDING.set(seen)
    try:
        yield seen
    finally:
        _SENDING.reset(token)


def watch(config: aiohttp.TraceConfig) -> None:
    """Mark `sending()`'s requests on `config`, the trace given discord.py (`http_trace`)."""

    async def started(_: Any, __: SimpleNamespace, params: Any) -> None:
        seen = _SENDING.get()
        if seen is not None:  # a retry (a 429 waited out) or the next request: not out yet
            seen.written = False

    async def out(_: Any, __: SimpleNamespace, params: Any) -> None:
        # Called as the request's status line and headers are written, its body right after
        # with no wait between: from here Discord may take it.
        seen = _SENDING.get()
        if seen is not None:
            seen.written = True

    async def ended(_: Any, __: SimpleNamespace, params: Any) -> None:
        seen = _SENDING.get()
        if seen is not None and params.response.status >= 400:
            seen.written = False  # refused (or rate limited): nothing shown
            seen.refused = params.response.status

    config.on_request_start.append(started)
    config.on_request_headers_sent.append(out)
    config.on_request_end.append(ended)
