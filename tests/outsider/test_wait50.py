"""The bot answers while its database is still coming up: tests/outsider/PLAN.md, "The bot
answers while its database is still coming up (wait50)".

Each bot is `glossary-bot run` in a process of its own against the fake Discord. "Refusing":
a port nothing listens on; "comes up during the wait": a forwarder to the real PostgreSQL
(TEST_DATABASE_URL) opened on that port later."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from bot.discord_app import health
from bot.discord_app.cogs.moderators import NOT_YET_READ, NOT_YET_WRITE, STORAGE_DOWN
from bot.discord_app.state import DatabaseWait
from bot.heartbeat import check_heartbeat
from bot.storage import Migrate, Store
from tests.conftest import TEST_DATABASE_URL
from tests.discord_app.helpers import buttons
from tests.fake_discord import FakeDiscord
from tests.outsider.test_shards49 import _forwarding, _free_port, at_port, glossary_lab
from tests.polling import eventually
from tests.resilience.botproc import BotProcess
from tests.storage.conftest import fresh_schema

FALLBACK = "answering without counts and aliases"
OPENED = r"answers after \d+ s: opened; (\d+) lookups? and (\d+) missed search"


def _title(message: dict[str, object]) -> str | None:
    embeds = message.get("embeds") or []
    assert isinstance(embeds, list)
    return embeds[0].get("title") if embeds else None


def _health(beat: Path) -> str:
    """What `glossary-bot health` says (exit 0 for "healthy: …", else 1)."""
    return check_heartbeat(beat)[1]


@pytest.mark.postgres
async def test_a_single_process_answers_while_postgresql_comes_up(tmp_path: Path) -> None:
    """Scenarios 1 and 2: a process of the whole bot started before PostgreSQL stayed offline
    for the wait (up to DATABASE_WAIT, 60 s: its start timed out here). Now it connects at once:
    /define, a mention, Explain terms and autocomplete answer from the glossary; a moderator's
    change and a member's /suggest are told the database is not reachable yet (nothing
    stored; a term form's text kept for Edit again, saved once it opens), /stats likewise; `health` says it waits (exit 1). When PostgreSQL comes, one line;
    the lookups counted meanwhile are written, an alias stored before answers, changes work,
    `health` turns healthy; all without a restart."""
    real = urlsplit(TEST_DATABASE_URL)
    port = _free_port()
    beat = tmp_path / "beat"
    async with fresh_schema(TEST_DATABASE_URL) as url, FakeDiscord() as fake:
        not_up = at_port(url, port)
        alice, moderator, guild, channel = glossary_lab(fake)
        seeded = await Store.open(url, flush_interval=None)  # the server's data from before
        try:
            await seeded.add_alias(guild.id, "blorfy", "blorfy", "rag", moderator.id)
        finally:
            await seeded.close()
        settings = {"DATABASE_URL": not_up, "HEARTBEAT_PATH": str(beat)}
        async with BotProcess(fake, tmp_path / "unused.db", cwd=tmp_path, **settings) as bot:
            said = await bot.wait_for_output("answering from the glossary meanwhile")
            assert "WARNING" in said, said
            assert f"DATABASE_URL=postgresql://{real.username}@127.0.0.1:{port}/" in said, said
            defined = await fake.slash(alice, "define", {"term": "kv cache"}, channel=channel)
            assert _title(await defined.final_message()) == "KV Cache"
            typed = await fake.autocomplete(
                alice, "define", {"term": "kv cach"}, focused="term", channel=channel
            )
            assert "KV Cache" in str(await typed.choices())
            await fake.user_message(alice, channel, f"{fake.bot.mention} kv cache")
            assert _title(await fake.wait_for_channel_message(channel)) == "KV Cache"
            chat = await fake.user_message(alice, channel, "is the kv cache kept per request?")
            explained = await fake.message_command(alice, "Explain terms", chat)
            assert "KV Cache" in str(await explained.final_message())
            refused = {
                ("alias add", (("alias", "zorbly"), ("term", "rag"))): NOT_YET_WRITE,
                ("suggest", (("term", "zentrofy"),)): NOT_YET_WRITE,
                ("stats", ()): NOT_YET_READ,
            }
            for (command, options), told in refused.items():
                who = alice if command == "suggest" else moderator
                handle = await fake.slash(who, command, dict(options), channel=channel)
                answer = await handle.final_message()
                assert answer["content"].startswith(told), (command, answer)

            opened_form = await fake.slash(
                moderator, "term add", {"category": "Fundamentals"}, channel=channel
            )
            await opened_form.response()
            values = {"title": "Zorblax", "definition": "The nightly job that re-ranks documents."}
            unsaved = await (
                await fake.submit_modal(moderator, opened_form, values)
            ).final_message()
            assert unsaved["content"].startswith(NOT_YET_WRITE), unsaved
            assert "Edit again" in buttons(unsaved), unsaved  # the text is kept

            async def waiting() -> bool:
                return _health(beat).startswith(
                    "starting: connected to Discord, answering from the glossary; "
                    f"waiting for the database DATABASE_URL=postgresql://{real.username}@"
                )

            await eventually(waiting, "health saying the bot waits for its database")
            assert not check_heartbeat(beat)[0]  # exit 1: not healthy yet
            assert re.search(
                r"\(since \d\d:\d\d:\d\d UTC, \d+ s; DATABASE_WAIT=60 s\)$", _health(beat)
            )

            async with _forwarding(port, real.hostname or "127.0.0.1", real.port or 5432):
                opened = await bot.wait_for_output(OPENED, within=60)
                found = re.search(OPENED, opened)
                assert found is not None
                counted = int(found[1])
                assert counted == 2, opened  # /define and the mention (a listing counts none)
                aliased = await fake.slash(alice, "define", {"term": "blorfy"}, channel=channel)
                assert (
                    _title(await aliased.final_message()) == "Retrieval-Augmented Generation (RAG)"
                )
                added = await fake.slash(
                    moderator, "alias add", {"alias": "zorbly", "term": "rag"}, channel=channel
                )
                assert (await added.final_message())["content"].startswith("Added: “zorbly”")
                again = await fake.click(moderator, unsaved, buttons(unsaved)["Edit again"])
                await again.response()
                saved = await (await fake.submit_modal(moderator, again, {})).final_message()
                assert saved["content"].startswith("Added **Zorblax**"), saved
                await eventually(lambda: check_heartbeat(beat)[0], "health after the database came")
                assert await bot.stop() == 0
        assert "ERROR" not in bot.output, bot.output
        assert "Traceback" not in bot.output, bot.output
        assert f":{real.password}@" not in bot.output
        stored = await Store.open(url, flush_interval=None, migrate=Migrate.NEVER)
        try:
            assert await stored.total_lookups(guild.id) == counted + 1  # and "blorfy"
            assert {a.key for a in await stored.list_aliases(guild.id)} == {"blorfy", "zorbly"}
            assert await stored.open_suggestions(guild.id) == []
        finally:
            await stored.close()


async def test_postgresql_refusing_for_good_is_given_up_while_the_bot_answers(
    tmp_path: Path,
) -> None:
    """Scenario 3: PostgreSQL at a wrong port. The bot answers during DATABASE_WAIT, then gives
    up as before (the one ERROR, which says how many lookups counted meanwhile are not kept);
    a change is then told the database cannot be written, and `health` says to restart."""
    port = _free_port()  # nothing listens: refused
    url = f"postgresql://glossary:s3cret@127.0.0.1:{port}/glossary"
    beat = tmp_path / "beat"
    async with FakeDiscord() as fake:
        alice, moderator, _, channel = glossary_lab(fake)
        settings = {"DATABASE_URL": url, "DATABASE_WAIT": "3", "HEARTBEAT_PATH": str(beat)}
        async with BotProcess(fake, tmp_path / "unused.db", cwd=tmp_path, **settings) as bot:
            given_up = await bot.wait_for_output(FALLBACK, within=60)
            assert "ERROR" in given_up, given_up
            assert re.search(
                r"\(tried for DATABASE_WAIT=3 s; the \d+ lookups? and \d+ missed searche?s? "
                r"counted meanwhile are not kept\); answering without counts and aliases$",
                given_up,
            ), given_up
            defined = await fake.slash(alice, "define", {"term": "kv cache"}, channel=channel)
            assert _title(await defined.final_message()) == "KV Cache"
            handle = await fake.slash(
                moderator, "alias add", {"alias": "zorbly", "term": "rag"}, channel=channel
            )
            assert (await handle.final_message())["content"] == STORAGE_DOWN

            async def gave_up() -> bool:
                return _health(beat).startswith(
                    "unhealthy: connected to Discord, but the database (DATABASE_URL="
                    f"postgresql://glossary@127.0.0.1:{port}/glossary) could not be opened at start"
                )

            await eventually(gave_up, "health saying the database could not be opened")
        lines = [line for line in bot.lines if "DATABASE_URL=" in line]
        # the wait's WARNING, the ERROR, and the heartbeat's "unhealthy" as it gave up
        assert [line.split()[2] for line in lines] == ["WARNING", "ERROR", "WARNING"], lines
        assert "unhealthy: connected to Discord, but the database" in lines[2], lines
        assert "s3cret" not in bot.output, bot.output


async def test_a_stop_during_the_wait_while_answering_ends_at_once(tmp_path: Path) -> None:
    """Scenario 3, stopped: a SIGTERM while the bot answers and waits for its database ends it
    at once (exit 0, no ERROR), saying what was counted meanwhile is not kept; `health` says it
    stopped cleanly. (Scenario 5, a sharded process still waiting before it connects, is
    test_shards49's bounds test.)"""
    url = f"postgresql://glossary:s3cret@127.0.0.1:{_free_port()}/glossary"
    beat = tmp_path / "beat"
    async with FakeDiscord() as fake:
        alice, _, _, channel = glossary_lab(fake)
        settings = {"DATABASE_URL": url, "DATABASE_WAIT": "600", "HEARTBEAT_PATH": str(beat)}
        async with BotProcess(fake, tmp_path / "unused.db", cwd=tmp_path, **settings) as bot:
            defined = await fake.slash(alice, "define", {"term": "kv cache"}, channel=channel)
            assert _title(await defined.final_message()) == "KV Cache"
            assert await bot.stop(within=30) == 0, bot.output
        [line] = [line for line in bot.lines if "stopped while opening the database" in line]
        assert re.search(
            r"\(the 1 lookup and 0 missed searches counted meanwhile are not kept\)$", line
        ), line
        assert "ERROR" not in bot.output, bot.output
        assert _health(beat).startswith("stopped: the bot stopped cleanly"), _health(beat)


@pytest.mark.postgres
async def test_another_process_of_the_bot_on_the_database_stops_this_one_as_it_opens(
    tmp_path: Path,
) -> None:
    """Scenario 2, the claim: a process of the whole bot claims it on PostgreSQL (one process
    per bot there). Answering before its database opens, it claims the bot once it opens: with
    another process of the bot already on the database, it stops with the refusal it would
    have met at start (exit 2, the other named), not serving beside it."""
    real = urlsplit(TEST_DATABASE_URL)
    port = _free_port()
    async with fresh_schema(TEST_DATABASE_URL) as url, FakeDiscord() as fake:
        not_up = at_port(url, port)
        alice, _, _, channel = glossary_lab(fake)
        other = await Store.open(url, flush_interval=None)
        try:
            holder = "glossary-bot all shards pid 7 on elsewhere"
            async with (
                other.claim_shards(None, holder=holder, wait=0),
                BotProcess(fake, tmp_path / "unused.db", cwd=tmp_path, DATABASE_URL=not_up) as bot,
            ):
                defined = await fake.slash(alice, "define", {"term": "kv cache"}, channel=channel)
                assert _title(await defined.final_message()) == "KV Cache"
                async with _forwarding(port, real.hostname or "127.0.0.1", real.port or 5432):
                    assert await bot.exited(within=90) == 2, bot.output
        finally:
            await other.close()
    [refusal] = [line for line in bot.lines if line.startswith("glossary-bot: ")]
    assert f"another process on this database runs shards ({holder}" in refusal, refusal
    assert "Traceback" not in bot.output, bot.output


class _NotConnected:
    """A client before its READY: what `is_connected` asks of one."""

    def is_ready(self) -> bool:
        return False

    def is_closed(self) -> bool:
        return False


async def test_health_says_the_wait_with_its_start_as_a_time_of_day(tmp_path: Path) -> None:
    """Scenario 1, `health`: the heartbeat file's line for a bot waiting for its database is
    said as "starting: …", its start a time of day and an age, exit 1; once that line is older
    than 45 s (the bot killed meanwhile), "down: …", what it last said rendered the same."""
    beat = tmp_path / "beat"
    since = 1_733_400_000.0  # 12:00:00 UTC
    wait = DatabaseWait("DATABASE_URL=postgresql://bot@db:5432/glossary", since, 60)
    reason = await health.unhealthy_reason(_NotConnected(), None, "unused", wait)  # type: ignore[arg-type]
    assert reason is not None
    assert health._write_heartbeat(beat, reason, True) is None
    written = float(beat.read_text().splitlines()[1])
    healthy, said = check_heartbeat(beat, now=written)
    assert not healthy
    assert said == (
        "starting: not connected to Discord; waiting for the database "
        f"DATABASE_URL=postgresql://bot@db:5432/glossary (since 12:00:00 UTC, "
        f"{written - since:.0f} s; DATABASE_WAIT=60 s)"
    ), said
    healthy, said = check_heartbeat(beat, now=written + 100)
    assert not healthy
    assert said.startswith(
        "down: nothing from the bot for 100 s (more than 45 s); it last said: "
        "starting: not connected to Discord; waiting for the database"
    ), said
