"""File work on a daemon thread of its own: a disk that hangs holds up neither the bot's stop nor
any other file work (and a glossary reload's, whose embedding can take minutes)."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from typing import TypeVar

R = TypeVar("R")


async def on_own_thread(work: Callable[..., R], *args: object, **kwargs: object) -> R:
    """`work` on a daemon thread of its own, not asyncio's default executor: `asyncio.run`
    joins that at exit without bound, so one write held by a disk that hangs kept a stopped bot
    from exiting; nor one thread for the process, whose hung write held every later file work
    of it (another bot's too). Awaited in turn, so a bot's own file work stays in order."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[R] = loop.create_future()

    def settle(result: R | None, error: BaseException | None) -> None:
        if done.done():  # cancelled meanwhile (a keeper cancelled at the stop's deadline)
            return
        if error is not None:
            done.set_exception(error)
        else:
            done.set_result(result)  # type: ignore[arg-type]

    def run() -> None:
        try:
            result, error = work(*args, **kwargs), None
        except BaseException as exc:
            result, error = None, exc
        with contextlib.suppress(RuntimeError):  # the loop closed while the disk hung
            loop.call_soon_threadsafe(settle, result, error)

    threading.Thread(target=run, name="file-work", daemon=True).start()
    return await done
