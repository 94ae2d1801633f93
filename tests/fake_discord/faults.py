"""Fault injection: make the next calls to a route answer 429 or 5xx, answer slowly, close
the connection without an answer (a dropped connection: the client sees aiohttp's
ServerDisconnectedError, which discord.py lets through), or hold the answer of a call the fake
has already taken (Discord shows it) until the test releases it.

Routes are named as ``("POST", "/channels/{channel_id}/messages")``: the method and the path
template below ``/api/v10`` exactly as ``FakeDiscord.routes()`` lists them.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass, field

from aiohttp import web

from .responses import error_body, json_response

API_PREFIX = "/api/v10"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass
class _Fault:
    method: str
    path: str
    status: int | None  # None: only a delay, or a drop
    delay: float
    remaining: int | None  # None: forever
    retry_after: float
    is_global: bool
    drop: bool = False
    code: int = 0  # Discord's error code in the body (10062 Unknown interaction, ...)


@dataclass
class Hold:
    """The answer to one call, held after the fake has taken the call (recorded it: a message
    is posted, a card shown) until `release()`: the client's request is under way meanwhile.
    `taken` is set once the call is taken. The fake's stop releases it too."""

    method: str
    path: str
    taken: asyncio.Event = field(default_factory=asyncio.Event)
    released: asyncio.Event = field(default_factory=asyncio.Event)

    def release(self) -> None:
        self.released.set()


@dataclass(frozen=True)
class ServedFault:
    method: str
    path: str
    status: int | None
    at: float


def route_template(request: web.Request) -> str:
    """The matched route's template below /api/v10, e.g. ``/channels/{channel_id}/messages``."""
    canonical = (
        request.match_info.route.resource.canonical if request.match_info.route.resource else ""
    )
    return canonical.removeprefix(API_PREFIX)


class Faults:
    def __init__(self, known_routes: Callable[[], Collection[tuple[str, str]]]) -> None:
        self._known_routes = known_routes
        self._faults: list[_Fault] = []
        self._holds: list[Hold] = []  # not yet taken, first first
        self._held: list[Hold] = []  # taken: released by the fake's stop at the latest
        self.served: list[ServedFault] = []
        # Set while the fake stops: answers still held by a delay end then, their connections
        # closed unanswered, as a server going down closes them (its shutdown waited them out).
        self._stopping = asyncio.Event()

    def fail_next(
        self,
        method: str,
        path: str,
        *,
        status: int = 429,
        times: int = 1,
        retry_after: float = 0.05,
        is_global: bool = False,
        code: int = 0,
    ) -> None:
        """The next ``times`` calls answer ``status`` (429 carries retry_after and headers),
        other statuses with Discord's error ``code`` in the body (0: none in particular)."""
        fault = _Fault(method.upper(), path, status, 0.0, times, retry_after, is_global, code=code)
        self._add(fault)

    def delay(self, method: str, path: str, seconds: float, *, times: int | None = None) -> None:
        """Answer calls to this route ``seconds`` late (all of them unless ``times`` is set)."""
        self._add(_Fault(method.upper(), path, None, seconds, times, 0.0, False))

    def drop_next(self, method: str, path: str, *, times: int = 1) -> None:
        """Close the connection of the next ``times`` calls to this route without answering.
        aiohttp retries an idempotent request once on a reused connection: drop two for one."""
        self._add(_Fault(method.upper(), path, None, 0.0, times, 0.0, False, drop=True))

    def hold_answer(self, method: str, path: str) -> Hold:
        """Hold the answer to the next call to this route once the fake has taken it."""
        hold = Hold(method.upper(), path)
        self._check(hold.method, path)
        self._holds.append(hold)
        return hold

    def clear(self) -> None:
        self._faults.clear()
        self._holds.clear()

    def stopping(self) -> None:
        """The fake stops: every answer a delay still holds ends, unanswered; a held one goes."""
        self._stopping.set()
        for hold in self._held:
            hold.release()

    def started(self) -> None:
        self._stopping.clear()

    def _add(self, fault: _Fault) -> None:
        self._check(fault.method, fault.path)
        self._faults.append(fault)

    def _check(self, method: str, path: str) -> None:
        if (method, path) not in self._known_routes():
            raise ValueError(f"no such route: {method} {path}; see FakeDiscord.routes()")

    def _take(self, method: str, path: str) -> list[_Fault]:
        taken = []
        for fault in self._faults:
            if fault.method == method and fault.path == path and fault.remaining != 0:
                if fault.remaining is not None:
                    fault.remaining -= 1
                taken.append(fault)
        self._faults = [f for f in self._faults if f.remaining != 0]
        return taken

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        path = route_template(request)
        for fault in self._take(request.method, path):
            if fault.delay:  # simulated latency, not synchronisation
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._stopping.wait(), fault.delay)
            if self._stopping.is_set():
                if request.transport is not None:  # None: the client has gone already
                    request.transport.close()
                return web.Response()  # never reaches the client
            if fault.drop:
                assert request.transport is not None
                request.transport.close()
                self.served.append(ServedFault(request.method, path, None, time.monotonic()))
                return web.Response()  # never reaches the client: its connection is closed
            if fault.status is not None:
                self.served.append(
                    ServedFault(request.method, path, fault.status, time.monotonic())
                )
                return _fault_response(fault)
        hold = next((h for h in self._holds if (h.method, h.path) == (request.method, path)), None)
        if hold is None:
            return await handler(request)
        self._holds.remove(hold)
        self._held.append(hold)
        if self._stopping.is_set():
            hold.release()
        answer = await handler(request)
        hold.taken.set()
        await hold.released.wait()  # released by the test, or by the fake's stop
        return answer


def _fault_response(fault: _Fault) -> web.Response:
    if fault.status != 429:
        return json_response(
            error_body(fault.code, f"{fault.status}: Injected failure"), fault.status or 500
        )
    # discord.py retries a 429 only when it carries a Via header and a JSON body with retry_after.
    headers = {
        "Retry-After": str(max(1, math.ceil(fault.retry_after))),
        "X-RateLimit-Limit": "5",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": f"{time.time() + fault.retry_after:.3f}",
        "X-RateLimit-Reset-After": f"{fault.retry_after:.3f}",
        "X-RateLimit-Bucket": f"fake-{abs(hash((fault.method, fault.path))):x}",
        "X-RateLimit-Scope": "global" if fault.is_global else "user",
        "Via": "1.1 google",
    }
    if fault.is_global:
        headers["X-RateLimit-Global"] = "true"
    body = {
        "message": "You are being rate limited.",
        "retry_after": fault.retry_after,
        "global": fault.is_global,
        "code": 0,
    }
    return json_response(body, 429, headers)
