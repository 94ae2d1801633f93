"""Small readers of what the fake recorded: embeds, buttons, flags."""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

from bot.discord_app.app import GlossaryBot
from tests.fake_discord import FakeChannel, FakeDiscord, FakeUser, InteractionHandle, run_client

JSON = dict[str, Any]
EPHEMERAL = 1 << 6
CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, UPDATE_MESSAGE = 4, 5, 7


@contextlib.asynccontextmanager
async def serve(client: GlossaryBot, fake: FakeDiscord) -> AsyncIterator[GlossaryBot]:
    """Run ``client`` against ``fake`` until the block ends; also right after another bot."""
    # A bot that just closed may still count as connected until the fake sees its socket go;
    # run_client waits for "connected", so wait for the old connection to be gone first.
    await fake.waiter.wait_for(lambda: not fake.gateway.connected, "previous bot to disconnect")
    async with run_client(client, fake):
        await client.wait_until_ready()
        yield client


def is_ephemeral(message: JSON) -> bool:
    return bool(int(message.get("flags") or 0) & EPHEMERAL)


def embed_of(message: JSON) -> JSON:
    [embed] = message["embeds"]
    return dict(embed)


def fields(message: JSON) -> dict[str, str]:
    return {f["name"]: f["value"] for f in embed_of(message).get("fields", [])}


def footer(message: JSON) -> str:
    return str(embed_of(message).get("footer", {}).get("text", ""))


def components(message: JSON) -> Iterator[JSON]:
    for row in message.get("components") or []:
        yield from row.get("components") or []


def buttons(message: JSON) -> dict[str, str]:
    """Button label -> custom id."""
    return {c["label"]: c["custom_id"] for c in components(message) if c["type"] == 2}


def selects(message: JSON) -> list[JSON]:
    return [c for c in components(message) if c["type"] == 3]


async def define(
    fake: FakeDiscord, user: FakeUser, term: str, channel: FakeChannel, **options: Any
) -> tuple[InteractionHandle, JSON]:
    """Run /define and return the handle and the message the user ends up seeing."""
    handle = await fake.slash(user, "define", {"term": term, **options}, channel=channel)
    return handle, await handle.final_message()


async def define_until_card(
    fake: FakeDiscord, user: FakeUser, term: str, channel: FakeChannel, *, within: float
) -> JSON:
    """/define again and again until it answers with a card, which must be within ``within``
    seconds (each /define is a full round trip: no sleeping in between).

    Only the first waits for the bot to settle: each settle spends one of the bot's gateway
    sends, and a hundred tries a second would run into discord.py's limit of 110 a minute."""
    started = time.monotonic()
    settle = fake.settle_before_actions
    try:
        while True:
            _, message = await define(fake, user, term, channel)
            if message["embeds"]:
                return message
            assert time.monotonic() - started < within, f"no card for {term!r} in {within} s"
            fake.settle_before_actions = False
    finally:
        fake.settle_before_actions = settle
