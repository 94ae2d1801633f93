"""Storage lost while the bot runs, as a self-hoster meets it: tests/outsider/PLAN.md,
"outsider72".

Each bot is `glossary-bot run` in a process of its own against the fake Discord. PostgreSQL
"stopped": the forwarder the bot reached it through closed (every session cut, the port
refusing), as `pg_ctl stop` did by hand; "started again": the forwarder opened on that port."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from bot.discord_app.cogs.moderators import KEPT, STORAGE_DOWN
from bot.heartbeat import check_heartbeat
from bot.storage import Migrate, Store
from tests.conftest import TEST_DATABASE_URL
from tests.discord_app.helpers import buttons
from tests.fake_discord import FakeDiscord
from tests.outsider.test_shards49 import _forwarding, _free_port, at_port, glossary_lab
from tests.polling import eventually
from tests.resilience.botproc import BotProcess
from tests.storage.conftest import fresh_schema

RAG = "Retrieval-Augmented Generation (RAG)"


def _title(message: dict[str, object]) -> str | None:
    embeds = message.get("embeds") or []
    assert isinstance(embeds, list)
    return embeds[0].get("title") if embeds else None


HEALTHY = re.compile(r"\bhealthy: heartbeat in ")


def _health_true_to_the_claims_and_counts(lines: list[str]) -> None:
    """polish72, from outsider72's B5: back from the outage, `health` turned healthy a second
    before the shard claims were taken again, and said "lookup counts cannot be written" once
    more the second the flush wrote them. Health is unhealthy until the claims are held again,
    naming them, and a probe that goes through has the waiting counts written, not said
    unwritten. (Failed before polish72: the first healthy line came before "shard claims taken
    again"; the counts' line as the heartbeat's look beat the flush.)"""
    ended = next(i for i, line in enumerate(lines) if "shard claims has ended" in line)
    taken = next(i for i, line in enumerate(lines) if "shard claims taken again" in line)
    healthy = next(i for i, line in enumerate(lines) if i > ended and HEALTHY.search(line))
    assert ended < taken < healthy, lines[ended:]
    said = [line for line in lines if "unhealthy:" in line]
    assert not [line for line in said if "lookup counts cannot be written" in line], said


@pytest.mark.postgres
async def test_postgresql_stopped_and_started_under_a_running_bot(tmp_path: Path) -> None:
    """B5: PostgreSQL goes away after the bot connected, then comes back, no restart.
    Meanwhile `/define`, a mention and Explain terms answer, the server's alias included;
    `/alias add` and a `/term add` form's save say nothing was changed (the form's text kept
    for Edit again); `health` is unhealthy naming DATABASE_URL, never its password. Back:
    `health` healthy, the lookups counted meanwhile written, the change and Edit again saved;
    nothing stored that was refused, nothing lost."""
    real = urlsplit(TEST_DATABASE_URL)
    port = _free_port()
    beat = tmp_path / "beat"
    upstream = (real.hostname or "127.0.0.1", real.port or 5432)
    async with fresh_schema(TEST_DATABASE_URL) as url, FakeDiscord() as fake:
        alice, moderator, guild, channel = glossary_lab(fake)
        settings = {
            "DATABASE_URL": at_port(url, port),
            "HEARTBEAT_PATH": str(beat),
            "HEARTBEAT_INTERVAL": "1",
        }
        bot = BotProcess(fake, tmp_path / "unused.db", cwd=tmp_path, **settings)
        async with _forwarding(port, *upstream):
            await bot.start()
            try:
                added = await fake.slash(
                    moderator, "alias add", {"alias": "blorfy", "term": "rag"}, channel=channel
                )
                assert (await added.final_message())["content"].startswith("Added: “blorfy”")
            except BaseException:
                await bot.stop()
                raise
        # The forwarder is closed: PostgreSQL is gone for the bot from here on.
        try:

            async def unhealthy() -> bool:
                return "is not writable" in check_heartbeat(beat)[1]

            defined = await fake.slash(alice, "define", {"term": "blorfy"}, channel=channel)
            assert _title(await defined.final_message()) == RAG
            await fake.user_message(alice, channel, f"{fake.bot.mention} blorfy")
            assert _title(await fake.wait_for_channel_message(channel)) == RAG
            chat = await fake.user_message(alice, channel, "is the kv cache kept per request?")
            explained = await fake.message_command(alice, "Explain terms", chat)
            assert "KV Cache" in str(await explained.final_message())

            refused = await fake.slash(
                moderator, "alias add", {"alias": "zorbly", "term": "rag"}, channel=channel
            )
            assert (await refused.final_message())["content"] == STORAGE_DOWN
            form = await fake.slash(
                moderator, "term add", {"category": "Fundamentals"}, channel=channel
            )
            await form.response()
            values = {"title": "Zorblax", "definition": "The nightly job that re-ranks documents."}
            unsaved = await (await fake.submit_modal(moderator, form, values)).final_message()
            assert unsaved["content"].startswith(STORAGE_DOWN), unsaved
            assert KEPT.strip() in unsaved["content"], unsaved
            assert "Edit again" in buttons(unsaved), unsaved

            await eventually(unhealthy, "health saying the database is not writable")
            said = check_heartbeat(beat)[1]
            assert f"postgresql://{real.username}@127.0.0.1:{port}/" in said, said
            assert f":{real.password}@" not in said

            async with _forwarding(port, *upstream):  # PostgreSQL started again
                await eventually(
                    lambda: check_heartbeat(beat)[0], "health once PostgreSQL is back", within=60
                )
                again = await fake.slash(
                    moderator, "alias add", {"alias": "zorbly", "term": "rag"}, channel=channel
                )
                assert (await again.final_message())["content"].startswith("Added: “zorbly”")
                reopened = await fake.click(moderator, unsaved, buttons(unsaved)["Edit again"])
                await reopened.response()
                saved = await (await fake.submit_modal(moderator, reopened, {})).final_message()
                assert saved["content"].startswith("Added **Zorblax**"), saved
                assert await bot.stop() == 0
        finally:
            await bot.stop()
        assert "Traceback" not in bot.output, bot.output
        assert f":{real.password}@" not in bot.output
        _health_true_to_the_claims_and_counts(bot.lines)
        stored = await Store.open(url, flush_interval=None, migrate=Migrate.NEVER)
        try:
            # /define and the mention while PostgreSQL was away (Explain terms counts none).
            assert await stored.total_lookups(guild.id) == 2
            assert {a.key for a in await stored.list_aliases(guild.id)} == {"blorfy", "zorbly"}
            assert [json.loads(t.body)["title"] for t in await stored.terms(guild.id)] == [
                "Zorblax"
            ]
        finally:
            await stored.close()


async def test_a_newer_database_renamed_in_then_removed_is_said_once(tmp_path: Path) -> None:
    """B3: a database of a newer schema renamed over the running bot's file (a newer bot's
    backup put back by hand), then removed. While it is there: one ERROR naming it, `health`
    says its version, moderators are told nothing was changed, and the log says nothing more
    as the counts' flush and each command find it again (it said "reopened the database
    connection" once a second and once a command); nothing is read from it (`/alias list`
    listed the newer bot's aliases). Removed: a new, empty database is made,
    and the line saying so says it is new and empty (the reader's connection had made the
    file first, so it read as a database put back: "writing to the database … again")."""
    beat = tmp_path / "beat"
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "g.db"
    async with FakeDiscord() as fake:
        alice, moderator, _guild, channel = glossary_lab(fake)
        settings = {"HEARTBEAT_PATH": str(beat), "HEARTBEAT_INTERVAL": "1"}
        async with BotProcess(fake, db, cwd=tmp_path, **settings) as bot:
            added = await fake.slash(
                moderator, "alias add", {"alias": "blorfy", "term": "rag"}, channel=channel
            )
            assert (await added.final_message())["content"].startswith("Added: “blorfy”")

            newer = tmp_path / "newer.db"
            made = await Store.open(str(newer), flush_interval=None)
            try:  # the newer bot's own alias: never read as this bot's
                await made.add_alias(_guild.id, "newerguy", "newerguy", "rag", moderator.id)
            finally:
                await made.close()
            conn = sqlite3.connect(newer)
            conn.execute("PRAGMA user_version = 99")
            conn.close()  # its -wal folded into the file, which alone is renamed
            newer.replace(db)
            for _ in range(3):
                refused = await fake.slash(
                    moderator, "alias add", {"alias": "zorbly", "term": "rag"}, channel=channel
                )
                assert (await refused.final_message())["content"] == STORAGE_DOWN, bot.output[
                    -3000:
                ]
                defined = await fake.slash(alice, "define", {"term": "blorfy"}, channel=channel)
                assert _title(await defined.final_message()) == RAG
            await eventually(
                lambda: "schema version 99" in check_heartbeat(beat)[1], "health naming it"
            )
            listed = await fake.slash(moderator, "alias list", {}, channel=channel)
            assert "newerguy" not in str(await listed.final_message())
            output = bot.output
            said = output[output.rfind("\n", 0, output.index("cannot be used (")) + 1 :]
            assert said.count("reopened the database connection") <= 1, said
            assert said.count("ERROR") == 1, said

            for leftover in folder.iterdir():
                leftover.unlink()
            again = await fake.slash(
                moderator, "alias add", {"alias": "zorbly", "term": "rag"}, channel=channel
            )
            answer = (await again.final_message())["content"]
            assert answer.startswith("Added: “zorbly”"), bot.output[-2500:]
            back = await bot.wait_for_output("writing to the database at")
            assert "a new, empty database" in back, back
        assert "Traceback" not in bot.output, bot.output
    stored = await Store.open(str(db), flush_interval=None, migrate=Migrate.NEVER)
    try:
        assert {a.key for a in await stored.list_aliases(_guild.id)} == {"zorbly"}
    finally:
        await stored.close()
