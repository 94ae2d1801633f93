"""Waiting for what another process does on its own (a file it writes, a metric it flushes, its
exit): there is no event to await across processes, so these poll, with a bound on a hang."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable

import pytest


async def eventually(
    check: Callable[[], object | Awaitable[object]], what: str, within: float = 40.0
) -> None:
    """Poll ``check`` (plain or async) until it is true. ``within`` bounds a hang; it is no
    speed to meet."""
    try:
        async with asyncio.timeout(within):
            while True:
                result = check()
                if inspect.isawaitable(result):
                    result = await result
                if result:
                    return
                await asyncio.sleep(0.1)  # the poll's pace, not a synchronisation
    except TimeoutError:
        pytest.fail(f"not within {within} s: {what}")
