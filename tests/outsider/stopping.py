"""A stop while a write of the bot's waits for a lock another writer holds (left36, stopgap37,
review38): the stop begun with no time left for answers, the lock freed by the caller as the
stop cancels them or only once the stop is over."""

from __future__ import annotations

import asyncio
import logging

from bot.discord_app.app import STORE_SHARE, GlossaryBot
from tests.resilience.helpers import warned


async def stop_with_a_write_held(bot: GlossaryBot, *, released_in_the_stop: bool) -> asyncio.Task:
    """Begin `bot`'s stop with no time left for answers, once it has cancelled the answers under
    way (its INFO line). Released in the stop, the caller frees the lock next and awaits the
    task returned; otherwise the stop is over when this returns (the caller frees the lock
    after)."""
    bot.stop_deadline = asyncio.get_running_loop().time() + STORE_SHARE
    async with warned("still under way at the stop's time", level=logging.INFO):
        closing = asyncio.create_task(bot.close())
    if not released_in_the_stop:
        await closing
    return closing
