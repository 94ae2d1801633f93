"""Small readers of what the fake recorded: embeds, buttons, flags; and the server terms and
store-read counters that the cache tests (discord_app, outsider, storage) share."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest

from bot.discord_app.app import GlossaryBot
from bot.glossary.server_terms import ServerTerm
from bot.storage import Store
from bot.term_storage import TermChange
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


async def download_all(fake: FakeDiscord, user: FakeUser, listing: JSON) -> bytes:
    """`/alias list`'s **Download all** clicked: the file it sends, whole."""
    clicked = await fake.click(user, listing, buttons(listing)["Download all"])
    [attached] = (await clicked.final_message())["attachments"]
    return fake.attachment_bytes(attached)


def selects(message: JSON) -> list[JSON]:
    return [c for c in components(message) if c["type"] == 3]


async def define(
    fake: FakeDiscord, user: FakeUser, term: str, channel: FakeChannel, **options: Any
) -> tuple[InteractionHandle, JSON]:
    """Run /define and return the handle and the message the user ends up seeing."""
    handle = await fake.slash(user, "define", {"term": term, **options}, channel=channel)
    return handle, await handle.final_message()


async def define_meanwhile(
    fake: FakeDiscord,
    user: FakeUser,
    channel: FakeChannel,
    started: threading.Event,
    answered: threading.Event,
) -> None:
    """Once work held in its first step has `started`, a /define of KV Cache in `channel` gets
    its card, and the work is told it was `answered` meanwhile (it can only be if the work runs
    off the event loop)."""
    assert await asyncio.to_thread(started.wait, 30)
    _, card = await define(fake, user, "kv cache", channel)
    answered.set()
    assert embed_of(card)["title"] == "KV Cache"


async def define_until_card(
    fake: FakeDiscord, user: FakeUser, term: str, channel: FakeChannel, *, within: float = 30.0
) -> JSON:
    """/define again and again until it answers with a card (each /define is a full round
    trip: no sleeping in between). ``within`` only bounds a hang: how fast a change shows is
    bench/alias_bench.py's to measure.

    Only the first waits for the bot to settle: each settle spends one of the bot's gateway
    sends, and a hundred tries a second would run into discord.py's limit of 110 a minute."""
    settle = fake.settle_before_actions
    try:
        async with asyncio.timeout(within):
            while True:
                _, message = await define(fake, user, term, channel)
                if message["embeds"]:
                    return message
                fake.settle_before_actions = False
    except TimeoutError:
        raise AssertionError(f"/define {term!r} never answered with a card") from None
    finally:
        fake.settle_before_actions = settle


class VersionChecks:
    """Counts the checks a bot's alias cache makes of the store's versions (each begins by
    reading `alias_version`), so a test waits for a check after a change, not for a time."""

    def __init__(self, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
        self.begun = 0
        self._changed = asyncio.Condition()
        read = store.alias_version

        async def counted() -> int:
            self.begun += 1
            async with self._changed:
                self._changed.notify_all()
            return await read()

        monkeypatch.setattr(store, "alias_version", counted)

    async def after_change(self, within: float = 30.0) -> None:
        """Return once a check begun after this call has read the versions and its result is
        taken in: the first check begun reads the change, the bot takes it in before the next."""
        wanted = self.begun + 2
        try:
            async with asyncio.timeout(within), self._changed:
                await self._changed.wait_for(lambda: self.begun >= wanted)
        except TimeoutError:
            raise AssertionError("the bot never checked the store's versions again") from None


def terms(prefix: str, count: int) -> tuple[ServerTerm, ...]:
    """`count` server terms of made-up names ("Zorbic Quux 0", ...), no bundled entry's."""
    return tuple(
        ServerTerm(
            id=f"{prefix.lower()}-{n}",
            title=f"{prefix} Quux {n}",
            definition=f"Our {prefix.lower()} job number {n}.",
            category="Fundamentals",
        )
        for n in range(count)
    )


def put(*new: ServerTerm) -> Callable[..., tuple[TermChange, None]]:
    """The edit `change_terms` makes to put `new` in a server's terms."""
    return lambda *_: (TermChange(put=new), None)


def count_reads(store: Store, monkeypatch: pytest.MonkeyPatch) -> Counter[int]:
    """Reads of a server's rows (its aliases or its terms), per server."""
    reads: Counter[int] = Counter()
    for name in ("aliases", "terms"):
        real = getattr(store, name)

        async def counted(scope: int, _real: Any = real) -> Any:
            reads[scope] += 1
            return await _real(scope)

        monkeypatch.setattr(store, name, counted)
    return reads
