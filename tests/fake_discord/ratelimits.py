"""Per-route rate limits, as Discord keeps them: a bucket per route and major parameter (the
channel, guild or webhook in its path) that takes ``limit`` requests per ``per`` seconds from
its first. Every answer in a limited route carries Discord's ``X-RateLimit-*`` headers (which
discord.py reads to wait before a bucket is spent); a request past the limit gets Discord's 429
(the body and headers of ``faults._fault_response``: ``retry_after`` until the bucket resets, a
``Via`` header, scope ``user``), which discord.py sleeps on and retries.

The fake sets none by itself: Discord publishes no numbers but says to read the headers, so a
test names the routes and numbers it exercises: ``fake.rate_limit("POST",
"/users/@me/channels", limit=5, per=1.0)``. ``fake.rate_limits.refused`` lists each 429 served,
``fake.rate_limits.spent`` each answer that said ``X-RateLimit-Remaining: 0``. A 429 is no
violation: a bot learns a bucket's size from its first answers, so several requests sent at once
may pass it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field

from aiohttp import web

from .faults import Handler, route_template
from .responses import json_response

# Path parameters Discord keys a bucket by, besides the route (its "major parameters").
MAJOR_PARAMETERS = ("channel_id", "guild_id", "webhook_id", "application_id", "token")


@dataclass
class _Limit:
    limit: int
    per: float
    # major parameter's value -> (window start, requests taken in it)
    windows: dict[str, tuple[float, int]] = field(default_factory=dict)


@dataclass(frozen=True)
class Limited:
    method: str
    path: str
    major: str
    at: float


class RateLimits:
    def __init__(self, known_routes: Callable[[], Collection[tuple[str, str]]]) -> None:
        self._known_routes = known_routes
        self._limits: dict[tuple[str, str], _Limit] = {}
        self.refused: list[Limited] = []  # the 429s served
        self.spent: list[Limited] = []  # answers that said the bucket was spent

    def set(self, method: str, path: str, *, limit: int, per: float) -> None:
        if (method.upper(), path) not in self._known_routes():
            raise ValueError(f"no such route: {method} {path}; see FakeDiscord.routes()")
        if limit < 1 or per <= 0:
            raise ValueError("a bucket takes at least 1 request per a positive time")
        self._limits[(method.upper(), path)] = _Limit(limit, per)

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        path = route_template(request)
        limit = self._limits.get((request.method, path))
        if limit is None:
            return await handler(request)
        major = ":".join(request.match_info.get(name, "") for name in MAJOR_PARAMETERS)
        now = time.monotonic()
        start, taken = limit.windows.get(major, (now, 0))
        if now - start >= limit.per:
            start, taken = now, 0
        reset_after = max(0.0, start + limit.per - now)
        bucket = f"fake-{abs(hash((request.method, path))):x}"
        if taken >= limit.limit:
            self.refused.append(Limited(request.method, path, major, now))
            return _too_many(limit.limit, reset_after, bucket)
        limit.windows[major] = (start, taken + 1)
        remaining = limit.limit - taken - 1
        if remaining == 0:
            self.spent.append(Limited(request.method, path, major, now))
        response = await handler(request)
        response.headers.update(_headers(limit.limit, remaining, reset_after, bucket))
        return response


def _headers(limit: int, remaining: int, reset_after: float, bucket: str) -> dict[str, str]:
    return {
        "X-RateLimit-Limit": str(limit),
        "X-RateLimit-Remaining": str(remaining),
        # Rounded up: a bot that waits what it is told never comes back too soon.
        "X-RateLimit-Reset": f"{math.ceil((time.time() + reset_after) * 1000) / 1000:.3f}",
        "X-RateLimit-Reset-After": f"{math.ceil(reset_after * 1000) / 1000:.3f}",
        "X-RateLimit-Bucket": bucket,
    }


def _too_many(limit: int, retry_after: float, bucket: str) -> web.Response:
    """Discord's 429 for a spent bucket (openapi.json's RatelimitedResponse and its headers)."""
    headers = {
        **_headers(limit, 0, retry_after, bucket),
        "Retry-After": str(max(1, math.ceil(retry_after))),  # whole seconds, rounded up
        "X-RateLimit-Scope": "user",
        "Via": "1.1 google",  # discord.py retries a 429 only with it (else: Cloudflare's ban)
    }
    body = {
        "message": "You are being rate limited.",
        "retry_after": math.ceil(retry_after * 1000) / 1000,
        "global": False,
        "code": 0,
    }
    return json_response(body, 429, headers)
