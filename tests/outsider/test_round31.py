"""Outsider round 31: a server's first month (tests/outsider/PLAN.md, "Outsider round 31
(outsider48)"): through the real client against the fake Discord, real SQLite files and
PostgreSQL, and the real command line."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
from pathlib import Path

from bot.discord_app.app import GlossaryBot
from bot.discord_app.cogs.define import DM_HELP
from bot.storage import Store
from bot.storage.migrations import latest_version
from tests.discord_app.helpers import define
from tests.resilience.botproc import CLI_ENV, glossary_bot_waited
from tests.resilience.conftest import StartBot

from .conftest import Scene
from .test_left47 import moderator_answer
from .test_review38 import help_for_each

V6_DUMP = Path(__file__).with_name("round31_v6.sql")
V6_GUILD = "987654321012"


def v6_database(path: Path, guild_id: int) -> None:
    """The database release 9762814 (schema V6) wrote for a server's first weeks (two terms
    imported, three aliases, one term removed with its alias, lookups, a miss, a suggestion, an
    open form's draft), as that server's."""
    conn = sqlite3.connect(path)
    try:
        conn.executescript(V6_DUMP.read_text(encoding="utf-8").replace(V6_GUILD, str(guild_id)))
    finally:
        conn.close()


async def test_a_database_of_the_previous_release_serves_after_the_upgrade(
    scene: Scene, start_bot: StartBot
) -> None:
    """Plan line U1: the previous release's database, opened by this one: V7 applied, the
    server's terms, aliases, counts, suggestion and history there."""
    v6_database(scene.db_path, scene.guild.id)
    store = await Store.open(scene.db_path)
    async with start_bot(store):
        _, card = await define(scene.fake, scene.alice, "quuxify", scene.channel)
        assert card["embeds"][0]["title"].startswith("Quuxify"), card
        _, card = await define(scene.fake, scene.alice, "ragalias", scene.channel)
        assert "RAG" in card["embeds"][0]["title"], card
        gone = await moderator_answer(scene, "alias remove", {"alias": "zorbalias"})
        assert re.fullmatch(
            r"This server has no alias “zorbalias”: it was removed with its term “Zorblax” "
            r"<t:\d+:R> \(`/term log` says by whom\)\.",
            gone,
        ), gone
        stats = await scene.fake.slash(
            scene.moderator, "stats", {"period": "all"}, channel=scene.channel
        )
        shown = json.dumps((await stats.final_message())["embeds"], ensure_ascii=False)
        assert "1. Quuxify: 3" in shown, shown  # 2 before the upgrade, 1 now
        assert "“blorpt”: 1×" in shown, shown
        assert "1 suggestion to review" in shown, shown
        review = await scene.fake.slash(scene.moderator, "term review", {}, channel=scene.channel)
        waiting = json.dumps(await review.final_message(), ensure_ascii=False)
        assert "Snarfle" in waiting, waiting
        log = await scene.fake.slash(scene.moderator, "term log", {}, channel=scene.channel)
        logged = json.dumps(await log.final_message(), ensure_ascii=False)
        assert "Zorblax" in logged, logged
    assert sqlite3.connect(scene.db_path).execute("PRAGMA user_version").fetchone() == (
        latest_version("sqlite"),
    )


ASKS_ABOUT_THE_BOT = (
    "help",
    "Help!",
    "help me",
    "/help",
    "!help",
    "commands",
    "what are your commands?",
    "how do I use you?",
    "how does this bot work?",
    "what can you do?",
    "what is this bot?",
    "who are you?",
)


async def test_a_member_asking_the_bot_for_help_gets_the_help_line(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Plan line F4: a new server's members first ask the bot itself what it does ("@Glossary
    help", "what can you do?"). "help" got a public "Did you mean one of these for “help”?"
    (offers of glossary entries), "how do I use you?" a public "No entry for …", each a
    missed search in `/stats`. Now the help line, in a DM too, and no miss; a server's own
    name for one of them ("commands" as an alias) still opens its card."""
    me = scene.fake.bot.mention
    await help_for_each(scene, *(f"{me} {text}" for text in ASKS_ABOUT_THE_BOT))
    dm = scene.fake.dm_channel(scene.alice)
    for text in ("help", "what can you do?"):
        await scene.fake.user_message(scene.alice, dm, text)
        answer = await scene.fake.wait_for_channel_message(dm)
        assert answer["content"] == DM_HELP, (text, answer)
    await store.flush()
    assert await store.top_misses(scene.guild.id) == []
    added = await moderator_answer(scene, "alias add", {"alias": "commands", "term": "rag"})
    assert added.startswith("Added"), added
    await scene.fake.user_message(scene.alice, scene.channel, f"{me} commands")
    answer = await scene.fake.wait_for_channel_message(scene.channel)
    assert answer["embeds"], answer
    assert "RAG" in answer["embeds"][0]["title"], answer


async def test_migrate_db_leaves_a_target_of_the_previous_release_as_it_was(
    tmp_path: Path,
) -> None:
    """Found beside plan line U3: `migrate-db --from` a database of the previous release is
    refused ("start the bot once to upgrade it"), as every command line write is, so that an
    older bot still serving it keeps working; but `--to` one (with `--force`: it holds data)
    upgraded it to V7 and added the copy, and the older bot serving it would refuse it at its
    next start. Now refused the same way, the target left as it was."""
    target = tmp_path / "served-by-the-previous-release.db"
    v6_database(target, 4242)
    before = target.read_bytes()
    source = tmp_path / "new.db"
    store = await Store.open(source)
    store.record_lookup(4242, "rag")
    await store.close()
    status, said = await asyncio.to_thread(
        glossary_bot_waited,
        CLI_ENV,
        tmp_path,
        "migrate-db",
        "--from",
        str(source),
        "--to",
        str(target),
        "--force",
        "--quiet",
    )
    assert status != 0, said
    newest = latest_version("sqlite")
    assert (
        f"schema version 6, older than this bot's {newest}; start the bot once to upgrade it"
        in (said)
    )
    assert target.read_bytes() == before
