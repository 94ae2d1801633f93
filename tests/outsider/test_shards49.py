"""Sharded on PostgreSQL as a self-hoster: tests/outsider/PLAN.md, "Sharded on PostgreSQL as a
self-hoster (shards49)".

Needs a real PostgreSQL: TEST_DATABASE_URL."""

from __future__ import annotations

import asyncio
import contextlib
import random
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import discord
import pytest

from bot.storage import Migrate, Store
from tests.conftest import TEST_DATABASE_URL
from tests.discord_app.helpers import buttons
from tests.fake_discord import FakeChannel, FakeDiscord, FakeGuild, FakeUser
from tests.resilience.botproc import BotProcess
from tests.storage.conftest import fresh_schema

FALLBACK = "answering without counts and aliases"


def at_port(url: str, port: int) -> str:
    """`url` (its user, password and database) at 127.0.0.1:`port`: a forwarder to it, or a
    port nothing listens on."""
    parts = urlsplit(url)
    userinfo = parts.netloc.rpartition("@")[0]
    return urlunsplit(parts._replace(netloc=f"{userinfo}@127.0.0.1:{port}"))


def glossary_lab(fake: FakeDiscord) -> tuple[FakeUser, FakeUser, FakeGuild, FakeChannel]:
    """Alice and a moderator (a role with Manage Server) in "Glossary Lab", and its #general."""
    alice, moderator = fake.add_user("alice"), fake.add_user("mo")
    guild = fake.add_guild("Glossary Lab")
    mods = guild.add_role("Mods", permissions=discord.Permissions(manage_guild=True).value)
    guild.add_member(alice)
    guild.add_member(moderator, roles=[mods])
    return alice, moderator, guild, guild.add_text_channel("general")


def _free_port() -> int:
    """A port nothing listens on, for a forwarder opened later: below the range the kernel
    hands out to outgoing connections, where the bot's and the tests' own connections took a
    port picked there meanwhile ("address already in use" when the forwarder opened it)."""
    try:
        low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768
    below = range(low // 2, low) if low >= 4096 else range(0)  # none there: as the kernel picks
    for port in [*random.sample(below, min(500, len(below))), 0]:
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return int(probe.getsockname()[1])
    raise AssertionError("no free port")


# A PostgreSQL's answers to a bot that may not log in (its protocol 3.0: an SSLRequest or
# GSSENCRequest refused with "N", a StartupMessage with an ErrorResponse).
_ENCRYPTION_REQUESTS = (80877103, 80877104)
_PASSWORD_REFUSED = b"".join(
    code + text.encode() + b"\0"
    for code, text in (
        (b"S", "FATAL"),
        (b"V", "FATAL"),
        (b"C", "28P01"),
        (b"M", 'password authentication failed for user "glossary"'),
    )
)


@contextlib.asynccontextmanager
async def _refusing_logins(port: int) -> AsyncIterator[None]:
    """From now on 127.0.0.1:`port` answers as a PostgreSQL that is up but refuses the bot's
    password (28P01): no longer "not up yet", so a bot waiting for it gives up at once."""

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                length = int.from_bytes(await reader.readexactly(4), "big")
                body = await reader.readexactly(length - 4)
                if int.from_bytes(body[:4], "big") in _ENCRYPTION_REQUESTS:
                    writer.write(b"N")  # no TLS here: the client goes on in the clear
                    continue
                refused = _PASSWORD_REFUSED + b"\0"
                writer.write(b"E" + (len(refused) + 4).to_bytes(4, "big") + refused)
                await writer.drain()
                return
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", port)
    try:
        yield
    finally:
        server.close()
        await server.wait_closed()


@contextlib.asynccontextmanager
async def _forwarding(port: int, host: str, to: int) -> AsyncIterator[None]:
    """From now on 127.0.0.1:`port` answers, as PostgreSQL's port does once it is up."""

    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    tasks: set[asyncio.Task[None]] = set()

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(host, to)
        for task in (pipe(reader, up_writer), pipe(up_reader, writer)):
            tasks.add(asyncio.create_task(task))

    server = await asyncio.start_server(serve, "127.0.0.1", port)
    try:
        yield
    finally:
        server.close()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


@pytest.mark.postgres
async def test_a_postgresql_not_up_yet_at_start_is_waited_for(tmp_path: Path) -> None:
    """Item 1: after a host's reboot, restart policies start the bot's containers beside
    PostgreSQL's without waiting for it (compose's `depends_on` holds for `up`, not for the
    daemon's restarts), so the bot can start before PostgreSQL takes connections. It then served, for
    good, without counts, aliases and server terms, and without its shard claims, until someone
    restarted it (health said to; nothing restarts an unhealthy container). Now a database
    that cannot be reached at start is tried again for a while, and taken up when it answers.
    The bot's port to PostgreSQL refuses connections (nothing listens) until a forwarder to the
    real server starts there."""
    real = urlsplit(TEST_DATABASE_URL)
    port = _free_port()
    async with fresh_schema(TEST_DATABASE_URL) as url, FakeDiscord() as fake:
        not_up = at_port(url, port)
        moderator = fake.add_user("mo")
        guild = fake.add_guild("Glossary Lab")
        mods = guild.add_role("Mods", permissions=discord.Permissions(manage_guild=True).value)
        guild.add_member(moderator, roles=[mods])
        channel = guild.add_text_channel("general")
        bot = BotProcess(fake, tmp_path / "unused.db", cwd=tmp_path, DATABASE_URL=not_up)
        starting = asyncio.create_task(bot.start())
        try:
            said = await bot.wait_for_output(rf"trying again|{FALLBACK}", within=60)
            assert FALLBACK not in said, said
            assert f"DATABASE_URL=postgresql://{real.username}@127.0.0.1:{port}/" in said, said
            async with _forwarding(port, real.hostname or "127.0.0.1", real.port or 5432):
                await starting
                # A process of the whole bot answers meanwhile (wait50): a change waits for this.
                await bot.wait_for_output(r"answers after \d+ s: opened", within=60)
                handle = await fake.slash(
                    moderator, "alias add", {"alias": "blorfy", "term": "rag"}, channel=channel
                )
                added = await handle.final_message()
                assert added["content"].startswith("Added: “blorfy”"), added
                await bot.stop()
            assert FALLBACK not in bot.output, bot.output
            assert f":{real.password}@" not in bot.output, bot.output
        finally:
            if not starting.done():
                starting.cancel()
            await bot.__aexit__()


@pytest.mark.postgres
async def test_the_wait_for_postgresql_is_bounded_and_a_stop_ends_it(tmp_path: Path) -> None:
    """Item 1, its bounds: past DATABASE_WAIT the bot serves without the database, as before
    (the WARNING first, then the one ERROR line); a stop during the wait ends the process at
    once, without an ERROR, before any shard connects (a sharded process: one of the whole
    bot connects first and waits while it answers, wait50)."""
    port = _free_port()  # nothing listens: refused
    url = f"postgresql://glossary:s3cret@127.0.0.1:{port}/glossary"
    async with FakeDiscord() as fake:
        alice = fake.add_user("alice")
        guild = fake.add_guild("Glossary Lab")
        guild.add_member(alice)
        channel = guild.add_text_channel("general")
        bounded = BotProcess(
            fake, tmp_path / "unused.db", cwd=tmp_path, DATABASE_URL=url, DATABASE_WAIT="2"
        )
        async with bounded:
            await bounded.wait_for_output(FALLBACK, within=60)  # it answers during the wait
            handle = await fake.slash(alice, "define", {"term": "kv cache"}, channel=channel)
            assert (await handle.final_message())["embeds"][0]["title"] == "KV Cache"
        said = [line for line in bounded.lines if "DATABASE_URL=" in line]
        assert len(said) == 2, said
        assert "WARNING" in said[0], said
        assert "trying again every 2 s for up to 2 s" in said[0], said
        assert "ERROR" in said[1], said
        assert said[1].endswith(FALLBACK), said
        assert "s3cret" not in bounded.output, bounded.output

        stopped = BotProcess(
            fake,
            tmp_path / "unused.db",
            cwd=tmp_path,
            DATABASE_URL=url,
            DATABASE_WAIT="600",
            SHARD_COUNT="1",
        )
        identified = fake.gateway.identify_count
        await stopped.start(wait_ready=False)
        try:
            await stopped.wait_for_output(r"trying again", within=60)
            assert await stopped.stop(within=30) == 0, stopped.output
        finally:
            await stopped.__aexit__()
        assert "stopped while opening the database" in stopped.output, stopped.output
        assert "ERROR" not in stopped.output, stopped.output
        assert fake.gateway.identify_count == identified


@pytest.mark.postgres
async def test_deciding_a_suggestion_while_postgresql_is_down_says_so(tmp_path: Path) -> None:
    """Item 2: PostgreSQL stopped under the bot (its port cut, as `pg_ctl stop` cuts it), a
    moderator presses **Accept…** on a suggestion `/term review` showed: the button read the
    suggestion without a guard, and the moderator got "Something went wrong on my side (error
    id …)" and the log a traceback, where every other write says the database cannot be
    written right now. Now it says so, and the suggestion stays open for when it is back."""
    real = urlsplit(TEST_DATABASE_URL)
    port = _free_port()
    async with (
        fresh_schema(TEST_DATABASE_URL) as url,
        FakeDiscord() as fake,
        contextlib.AsyncExitStack() as database,
    ):
        via = at_port(url, port)
        alice, moderator, guild, channel = glossary_lab(fake)
        await database.enter_async_context(
            _forwarding(port, real.hostname or "127.0.0.1", real.port or 5432)
        )
        async with BotProcess(fake, tmp_path / "unused.db", cwd=tmp_path, DATABASE_URL=via) as bot:
            form = await fake.slash(alice, "suggest", {"term": "zentrofy"}, channel=channel)
            await form.response()
            idea = {"definition": "A made-up word for a test of the bot."}
            sent = await (await fake.submit_modal(alice, form, idea)).final_message()
            assert sent["content"].startswith("Thanks! “zentrofy”"), sent
            review = await fake.slash(
                moderator, "term review", {"category": "Fundamentals"}, channel=channel
            )
            shown = await review.final_message()
            await database.aclose()  # PostgreSQL gone: its connections cut, new ones refused
            told = {
                "Accept…": "The database cannot be written right now, so nothing was changed.",
                "Reject": "The suggestion could not be marked decided (database); it stays in",
            }
            for label, said in told.items():
                pressed = await fake.click(moderator, shown, buttons(shown)[label])
                answer = await pressed.final_message()
                assert answer["content"].startswith(said), (label, answer)
            assert "Something went wrong" not in bot.output, bot.output
            assert "Traceback" not in bot.output, bot.output
        store = await Store.open(url, flush_interval=None, migrate=Migrate.NEVER)
        try:
            [waiting] = await store.open_suggestions(guild.id)
        finally:
            await store.close()
        assert waiting.title == "zentrofy"
