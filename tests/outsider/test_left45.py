"""Leftovers of this session's reviews (tests/outsider/PLAN.md, "Leftovers (left45)"): each
through the real client against the fake Discord, real SQLite or PostgreSQL, or the real
command line; each test failed before its fix."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import socket
import sqlite3
from pathlib import Path

import pytest

from bot.discord_app import runner
from bot.discord_app.app import GlossaryBot
from bot.settings import Settings
from bot.storage import ShardsTaken, Store
from tests.conftest import TEST_DATABASE_URL
from tests.discord_app.helpers import buttons, is_ephemeral
from tests.discord_app.term_commands import add_term
from tests.resilience.botproc import CLI_ENV, glossary_bot_waited
from tests.storage.conftest import fresh_schema

from .conftest import Scene


async def _alias_list(scene: Scene, options: dict[str, str]) -> dict[str, object]:
    handle = await scene.fake.slash(scene.moderator, "alias list", options, channel=scene.channel)
    return await handle.final_message()


async def test_alias_list_of_a_whitespace_term_lists_every_alias(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Item 1 (sweep45): `/alias list term:"   "` answered "There is no term “” in the
    glossary", where no term lists every alias: a term of spaces alone is no term given. (Discord
    sends no option left empty, and its box takes at least one character since caps72.)"""
    await add_term(scene)
    added = await scene.fake.slash(
        scene.moderator,
        "alias add",
        {"alias": "zorbalias", "term": "zorblax"},
        channel=scene.channel,
    )
    await added.final_message()
    every = await _alias_list(scene, {})
    assert every["embeds"][0]["title"] == "1 alias in this server", every
    for blank in ("   ", "\u3000", " \t "):
        shown = await _alias_list(scene, {"term": blank})
        assert not shown.get("content"), (blank, shown["content"])
        assert shown["embeds"] == every["embeds"], (blank, shown)


async def _remove_alias(scope_scene: Scene, alias: str) -> str:
    handle = await scope_scene.fake.slash(
        scope_scene.moderator, "alias remove", {"alias": alias}, channel=scope_scene.channel
    )
    message = await handle.final_message()
    assert is_ephemeral(message), message
    return str(message["content"])


async def test_an_alias_removed_with_its_term_says_so(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Item 2 (sweep45): `/term remove` takes the term's aliases with it; `/alias remove` of one
    of them (a stale pick from its autocomplete) answered "This server has no alias
    “zorbalias”.": true, but not why. Now it names the term removed with it, and when; an alias
    removed alone (here one of a bundled entry) says when; one never added is as before."""
    await add_term(scene)
    fake = scene.fake
    for alias, term in (("zorbalias", "zorblax"), ("zorbother", "rag")):
        added = await fake.slash(
            scene.moderator, "alias add", {"alias": alias, "term": term}, channel=scene.channel
        )
        await added.final_message()
    assert (await _remove_alias(scene, "zorbother")) == "Removed “zorbother”."
    asked = await fake.slash(
        scene.moderator, "term remove", {"term": "zorblax"}, channel=scene.channel
    )
    prompt = await asked.final_message()
    clicked = await fake.click(scene.moderator, prompt, buttons(prompt)["Remove"])
    await clicked.followups(1)
    said = await _remove_alias(scene, "zorbalias")
    assert re.fullmatch(
        r"This server has no alias “zorbalias”: it was removed with its term “Zorblax” "
        r"<t:\d+:R> \(`/term log` says by whom\)\.",
        said,
    ), said
    said = await _remove_alias(scene, "ZorbOther")
    assert re.fullmatch(
        r"This server has no alias “ZorbOther”: it was removed <t:\d+:R>\.", said
    ), said
    assert (await _remove_alias(scene, "never")) == "This server has no alias “never”."


async def test_a_failed_decision_beyond_the_25_oldest_shows_no_next(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Item 3 (review44 K1's leftover): after a decision the database refused, the "Next" check
    looked for the suggestion among the 25 oldest waiting only: one further back (a Reject
    button whose suggestion is the 30th waiting; no review shows one so, hence the custom id
    rewritten here, as a stale or hand-made client could send it) was shown "Next, 25 or more
    waiting:" after "it stays in the queue". Now the store is asked whether it is still open."""
    for n in range(30):
        await store.add_suggestion(scene.guild.id, 1000 + n, f"Zorb Thing {n}", "What it is.")
    waiting = await store.open_suggestions(scene.guild.id, limit=50)
    last = waiting[-1]
    fake = scene.fake
    review = await fake.slash(scene.moderator, "term review", {}, channel=scene.channel)
    shown = await review.final_message()
    reject = buttons(shown)["Reject"]
    forged = f"gb:sugg:no:{last.id}:"
    stored = fake.store.get(int(shown["id"]))
    assert stored is not None
    for row in stored["components"]:
        for component in row["components"]:
            if component.get("custom_id") == reject:
                component["custom_id"] = forged
    with contextlib.closing(sqlite3.connect(scene.db_path)) as other:
        other.execute(
            "CREATE TRIGGER disk_full BEFORE UPDATE ON suggestions "
            "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
        )
        other.commit()
    rejected = await fake.click(scene.moderator, stored, forged)
    answer = await rejected.final_message()
    assert "could not be marked decided (database); it stays in the queue" in answer["content"]
    assert "Next" not in answer["content"], answer["content"]
    assert not answer.get("embeds"), answer["embeds"]


async def test_one_name_accepted_in_two_servers_on_the_command_line_is_that_name(
    tmp_path: Path,
) -> None:
    """Item 4 (review44): `aliases import` of one alias in two servers, each with a member
    waiting for that name: "Also accepted 2 waiting suggestions of those names", of one name.
    The names are counted as names now, whichever servers they were accepted in."""
    db = tmp_path / "bot.db"
    store = await Store.open(db, flush_interval=None)
    try:
        for guild in (4, 5):
            await store.add_suggestion(guild, 1, "Zorbinator", "Please add it.")
    finally:
        await store.close()
    (tmp_path / "aliases.json").write_text(
        json.dumps(
            [{"guild_id": guild, "alias": "zorbinator", "entry_id": "rag"} for guild in (4, 5)]
        )
    )
    status, said = await asyncio.to_thread(
        glossary_bot_waited, CLI_ENV, tmp_path, "aliases", "import", "aliases.json", "--db", str(db)
    )
    assert status == 0, said
    assert said.endswith(
        "Also accepted 2 waiting suggestions of that name; their members were not told (the "
        "command line cannot message members).\n"
    ), said


@pytest.mark.skipif(not TEST_DATABASE_URL, reason="needs TEST_DATABASE_URL (PostgreSQL)")
@pytest.mark.parametrize(
    ("count", "ids", "listed"),
    [
        (150, "", "shards 0-149"),
        (400, ",".join(str(n) for n in range(0, 400, 3)), "shards 0,3,6,9,"),
    ],
)
async def test_a_refusal_names_the_host_and_pid_of_a_process_of_many_shards(
    count: int, ids: str, listed: str
) -> None:
    """Item 5 (auto43, review43): PostgreSQL keeps 63 bytes of a session's name, and the name
    listed every shard first: from about ten shards in one process the refusal of another
    process lost the holder's host, then its pid ("glossary-bot shards 0,1,2,…,19,2"). Now the
    host and pid come first and the shards go as ranges ("shards 0-149"), cut at the end
    if still too long."""
    host, pid = socket.gethostname(), os.getpid()
    async with fresh_schema(TEST_DATABASE_URL) as url:
        holder = await Store.open(url, flush_interval=None)
        other = await Store.open(url, flush_interval=None)
        try:
            many = Settings(_env_file=None, shard_count=count, shard_ids=ids)  # type: ignore[call-arg]
            # claim_wait=0: refused at once (the refusal's words are the point; review46 waits).
            one = Settings(_env_file=None, shard_count=count, shard_ids="0", claim_wait=0)  # type: ignore[call-arg]
            async with runner._claim_shards(many, holder, None, None):
                with pytest.raises(ShardsTaken) as taken:
                    async with runner._claim_shards(one, other, None, None):
                        pass
        finally:
            await holder.close()
            await other.close()
    [named] = taken.value.holders
    assert f"pid {pid} on {host}" in named, named
    assert listed in named, named
    line = runner._shards_taken(one, taken.value, shared=True)
    assert f"pid {pid} on {host}" in line, line


def test_a_holder_name_keeps_pid_and_host_within_63_bytes() -> None:
    """Item 5's name, case by case: as before where it fits; ranges, then a cut list, before
    the pid and host are lost; a host of its own length cut last."""
    assert runner.holder_name([0, 1], 42, "vm") == "glossary-bot shards 0,1 pid 42 on vm"
    assert runner.holder_name(None, 42, "vm") == "glossary-bot all shards pid 42 on vm"
    assert runner.holder_name(range(150), 42, "vm") == "glossary-bot shards 0-149 pid 42 on vm"
    pod = "bot-7d9f8c6b5-x2x9k"
    cut = runner.holder_name(range(0, 400, 3), 4194304, pod)
    assert cut == f"glossary-bot shards 0,3,… pid 4194304 on {pod}", cut
    long = runner.holder_name(range(150), 4194304, "h" * 80)
    assert long.startswith("glossary-bot pid 4194304 on hhh"), long
    for name in (cut, long, runner.holder_name(None, 4194304, "h" * 80)):
        assert len(name.encode()) <= runner.HOLDER_BYTES, name


@pytest.mark.skipif(not TEST_DATABASE_URL, reason="needs TEST_DATABASE_URL (PostgreSQL)")
async def test_check_deep_on_postgresql_says_it_applies_to_sqlite(tmp_path: Path) -> None:
    """Item 6 (review43 11's leftover): `check --db postgresql://… --deep` checked what
    `check --db` checks and said nothing of `--deep`. Now one line says it applies to a
    SQLite file only (PostgreSQL checks a text's encoding as it is written); the rest of the
    check, and its exit status, as without it."""
    async with fresh_schema(TEST_DATABASE_URL) as url:
        store = await Store.open(url, flush_interval=None)
        await store.add_alias(4, "zorbinator", "zorbinator", "rag", 1)
        await store.close()
        runs = [
            await asyncio.to_thread(
                glossary_bot_waited, CLI_ENV, tmp_path, "check", "--db", url, *deep
            )
            for deep in ((), ("--deep",))
        ]
    (plain_status, plain), (deep_status, deep) = runs
    assert deep_status == plain_status == 0, runs
    note = [line for line in deep.splitlines() if "--deep" in line]
    assert note == [
        "check: --deep applies to a SQLite file only: PostgreSQL checks each text's encoding "
        "as it is written, so this database gets the usual check"
    ], deep
    assert [line for line in deep.splitlines() if line not in note] == plain.splitlines()
