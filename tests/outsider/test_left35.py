"""Leftovers found this session (tests/outsider/PLAN.md, "Leftovers found this session
(left35)"): read-only snapshots, `health`'s clock, PostgreSQL's error lines, `restore`'s
leftovers, direct messages' turns.

Through `glossary-bot` and `glossary-bot run` against the fake Discord, with real SQLite files
(and PostgreSQL where said)."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from bot.dburl import without_password
from bot.discord_app.app import GlossaryBot
from bot.discord_app.member_searches import (
    DM_MOST_WAITING,
    DMS_TIMES_A_SERVER,
    MemberSearches,
    turn_of,
)
from bot.heartbeat import check_heartbeat
from bot.search.index import SearchIndex
from tests.conftest import TEST_DATABASE_URL
from tests.discord_app.helpers import embed_of
from tests.discord_app.test_member_searches import LONG_TEXT, STUCK, HeldSearch, queued_searches
from tests.resilience.botproc import CLI_ENV, BotProcess, glossary_bot_here
from tests.resilience.conftest import without_permission_override

from .conftest import Scene
from .test_left24 import _cli, in_a_read_only_folder
from .test_round20 import _database


@pytest.mark.parametrize(
    ("command", "shows"),
    [
        (("stats", "--db", "snap/g.db"), "Lookups"),
        (("aliases", "export", "--db", "snap/g.db"), '"stash"'),
        (("terms", "export", "--guild", "1", "--db", "snap/g.db"), ""),
        (("terms", "log", "--guild", "1", "--db", "snap/g.db"), "No term changes"),
    ],
)
def test_reads_of_a_database_alone_in_a_read_only_folder(
    tmp_path: Path, command: tuple[str, ...], shows: str
) -> None:
    """Leftover 1: a bot's file alone in a read-only folder (a snapshot, a read-only mount):
    `check --db`, `backup`, `restore` and `migrate-db` read it through a copy or as immutable,
    but `stats`, `aliases export`, `terms export` said "cannot read the database: the database
    file cannot be opened". Now they read it; the folder and the file as they were."""
    folder = tmp_path / "snap"
    done, before = in_a_read_only_folder(folder, *command)
    assert done.returncode == 0, done
    assert shows in done.stdout, done.stdout
    assert sorted(p.name for p in folder.iterdir()) == ["g.db"]
    assert (folder / "g.db").read_bytes() == before


@pytest.mark.parametrize(
    ("written", "how"),
    [("stopped at 4600\n", "cleanly"), ("stopped at 4600 on an error\n", "on an error")],
)
def test_health_says_a_stop_dated_ahead_of_the_clock(
    tmp_path: Path, written: str, how: str
) -> None:
    """Leftover 2: a stop line dated an hour ahead of this machine's clock (the clock set back
    since the bot stopped) read "the bot stopped cleanly 0 s ago". Now it says the clock."""
    heartbeat = tmp_path / "heartbeat"
    heartbeat.write_text(written, "utf-8")
    healthy, said = check_heartbeat(heartbeat, now=1000.0)
    assert not healthy
    assert "0 s ago" not in said, said
    assert said.startswith(f"stopped: the bot stopped {how} (the stop is dated 3600 s ahead "), said
    assert "clock was set back since" in said, said
    # A stop a moment ago, its time rounded up to the second, is no clock's fault.
    heartbeat.write_text(written.replace("4600", "1000"), "utf-8")
    assert f"stopped {how} 0 s ago" in check_heartbeat(heartbeat, now=999.6)[1]


WRONG_PASSWORD = "wrong-password-left35"


def _wrong_password(url: str) -> str:
    """The test database's URL with a password PostgreSQL refuses."""
    parts = urlsplit(url)
    netloc = f"{parts.username}:{WRONG_PASSWORD}@{parts.hostname}:{parts.port or 5432}"
    return urlunsplit(parts._replace(netloc=netloc))


@pytest.mark.postgres
async def test_check_db_names_a_postgresql_url_once(tmp_path: Path) -> None:
    """Leftover 3: `check --db URL` on a database refusing the password said "URL: error:
    cannot read the database: cannot log in to the database at URL: …": the URL twice in one
    line. Now once; the same for a SQLite file that holds no bot's data."""
    url = _wrong_password(TEST_DATABASE_URL)
    status, output = glossary_bot_here(CLI_ENV, tmp_path, "check", "--db", url)
    assert status == 1, output
    [line] = [line for line in output.splitlines() if "cannot read the database" in line]
    assert line.count(without_password(url)) == 1, line
    assert "cannot log in to the database: password authentication failed" in line, line
    (tmp_path / "empty.db").touch()
    status, output = glossary_bot_here(CLI_ENV, tmp_path, "check", "--db", "empty.db")
    assert status == 1, output
    assert "empty.db: error: cannot read the database: it holds no Glossary Bot data" in output


@pytest.mark.postgres
async def test_the_bots_line_for_a_postgresql_database_it_cannot_open_names_it_once(
    scene: Scene, tmp_path: Path
) -> None:
    """Leftover 3, the bot: "cannot open the database DATABASE_URL=URL: cannot log in to the
    database at URL: …" named the URL twice. Now once, after the setting; /define answers."""
    url = _wrong_password(TEST_DATABASE_URL)
    async with BotProcess(scene.fake, scene.db_path, cwd=tmp_path, DATABASE_URL=url) as bot:
        handle = await scene.fake.slash(
            scene.alice, "define", {"term": "kv cache"}, channel=scene.channel
        )
        assert (await handle.final_message())["embeds"][0]["title"] == "KV Cache"
    [line] = [line for line in bot.lines if "cannot open the database" in line]
    assert line.count(without_password(url)) == 1, line
    assert f"DATABASE_URL={without_password(url)}: cannot log in to the database: " in line, line


def test_restore_of_a_wal_mode_backup_leaves_its_folder_as_it_was(tmp_path: Path) -> None:
    """Leftover 4: `restore` of a bot's file (WAL mode, as the bot leaves it) in a writable
    folder left an empty `-wal` and `-shm` beside the backup (its read-only connections make
    them and leave them), as `backup` did before left34. Now the folder is as it was found."""
    folder = tmp_path / "backups"
    folder.mkdir()
    before = _database(folder / "g.db").read_bytes()
    assert sorted(p.name for p in folder.iterdir()) == ["g.db"]
    status, output = glossary_bot_here(
        CLI_ENV, tmp_path, "restore", "backups/g.db", "--db", "bot.db"
    )
    assert status == 0, output
    assert sorted(p.name for p in folder.iterdir()) == ["g.db"]
    assert (folder / "g.db").read_bytes() == before
    status, output = glossary_bot_here(CLI_ENV, tmp_path, "aliases", "export", "--db", "bot.db")
    assert status == 0, output
    assert '"stash"' in output, output


FLOOD = 4  # one member's direct messages waiting at once (under MOST_WAITING)


async def test_one_member_flooding_direct_messages_lets_another_members_dm_through(
    scene: Scene, bot: GlossaryBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Leftover 5: every direct message took one turn (DM_SCOPE) in the members' worker, so one
    member flooding the bot's DMs made every other member's DM wait behind all of it (and, at
    50, refused). Now each member's DMs take their own turn: alice's DMs C0..C3 wait (the first
    held in its search); bob's one DM is searched next, before alice's second."""
    fake, searches = scene.fake, bot.state.member_searches
    held = HeldSearch(monkeypatch)
    searched: list[str] = []  # whose text the worker searched, in order
    search = SearchIndex.search

    def noted(index: SearchIndex, text: str, *args: Any, **kwargs: Any) -> Any:
        searched.append(text.split(" ", 1)[0])
        return search(index, text, *args, **kwargs)

    monkeypatch.setattr(SearchIndex, "search", noted)
    asked: list[str] = []  # whose texts were handed to the worker so far
    all_waiting, other_asked = asyncio.Event(), asyncio.Event()
    run = searches.run

    async def counted(turn: Any, work: Callable[..., Any], *args: object) -> Any:
        text = next(a for a in args if isinstance(a, str))  # after the index searched
        asked.append(text.split(" ", 1)[0])
        if sum(a.startswith("C") for a in asked) == FLOOD:
            all_waiting.set()
        if "B" in asked:
            other_asked.set()
        return await run(turn, work, *args)  # queued (or in the worker) before it yields

    monkeypatch.setattr(searches, "run", counted)
    alices, bobs = fake.dm_channel(scene.alice), fake.dm_channel(scene.bob)
    for n in range(FLOOD):
        await fake.user_message(scene.alice, alices, f"C{n} {LONG_TEXT}")
    assert await asyncio.to_thread(held.started.wait, STUCK)  # one of alice's holds the worker
    await asyncio.wait_for(all_waiting.wait(), STUCK)  # the rest queued behind it
    await fake.user_message(scene.bob, bobs, f"B {LONG_TEXT}")
    await asyncio.wait_for(other_asked.wait(), STUCK)
    held.released.set()
    assert embed_of(await fake.wait_for_channel_message(bobs))["title"] == "KV Cache"
    for _ in range(FLOOD):
        assert embed_of(await fake.wait_for_channel_message(alices))["title"] == "KV Cache"
    # Alice's held one, then bob's, then the rest of hers.
    assert searched[1] == "B", searched
    assert sorted(searched) == sorted([f"C{n}" for n in range(FLOOD)] + ["B"])


async def test_one_member_at_the_dm_cap_does_not_refuse_another_members_define(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Leftover 5, `/define`'s worker: alice's DMs at the cap (2 here; 50 shipped) once
    refused every member's `/define` in DMs ("Too many searches are waiting"). Now bob's is
    deferred behind the search running, then answered."""
    searches = bot.state.term_searches
    searches.most_waiting = 2
    release = threading.Event()
    alices = turn_of(None, scene.alice.id)
    held = [asyncio.create_task(searches.run(alices, release.wait)) for _ in range(2)]
    try:  # both take their places first: the loop runs them before the fake's request
        dm = scene.fake.dm_channel(scene.bob)
        asked = await scene.fake.slash(scene.bob, "define", {"term": "kv cache"}, channel=dm)
        assert (await asked.response())["type"] == 5, asked.records  # deferred, not refused
    finally:
        release.set()
    assert await asyncio.gather(*held) == [True, True]
    assert embed_of(await asked.final_message())["title"] == "KV Cache"


NO_SCHEMA = "already holds tables but no Glossary Bot schema"


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("stats", f"glossary-bot: error: snap/other.db {NO_SCHEMA}"),
        ("check", f"snap/other.db: error: cannot read the database: it {NO_SCHEMA}"),
    ],
)
def test_a_snapshot_read_through_a_copy_is_named_as_given(
    tmp_path: Path, command: str, said: str
) -> None:
    """Leftover 1, found on the way: a file alone in a read-only folder that is no bot's
    database was refused as "/tmp/glossary-bot-read-…/other.db is not a Glossary Bot
    database" (or "… already holds tables but no Glossary Bot schema"), naming the copy, gone. Now the file as it was given."""
    folder = tmp_path / "snap"
    folder.mkdir()
    with contextlib.closing(sqlite3.connect(folder / "other.db")) as conn, conn:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("CREATE TABLE notes (body TEXT)")
    folder.chmod(0o555)
    try:
        done = _cli(
            tmp_path, command, "--db", "snap/other.db", prefix=without_permission_override()
        )
    finally:
        folder.chmod(0o755)
    assert done.returncode == 1, done
    assert said in done.stdout + done.stderr, done
    assert "glossary-bot-read-" not in done.stdout + done.stderr, done
    assert sorted(p.name for p in folder.iterdir()) == ["other.db"]


async def test_direct_messages_stay_bounded_with_a_turn_for_each_member() -> None:
    """Leftover 5, the bound: one turn for all DMs bounded what a raid of accounts could queue
    (50). With a turn each, a member may have DM_MOST_WAITING waiting (at most a server's cap),
    and all DMs together DMS_TIMES_A_SERVER times a server's cap: past either, refused; a
    server's turn is not touched by them. (Cap 2 here, so 10 members fill all DMs' 20.)"""
    searches = MemberSearches(most_waiting=2)
    release = threading.Event()
    members, each = DMS_TIMES_A_SERVER, min(2, DM_MOST_WAITING)
    turns = [turn_of(None, member) for member in range(1, members + 1) for _ in range(each)]
    turns.append(turn_of(7, 1))  # a server's, behind them
    try:
        tasks = await queued_searches(searches, turns, release)
        # Refused at once; queued instead, they would wait for the release below (STUCK: a
        # bound on that hang only).
        for turn in (turn_of(None, 1), turn_of(None, 99)):  # the member's own cap; all DMs'
            assert await asyncio.wait_for(searches.run(turn, release.wait), STUCK) is None
        server = asyncio.create_task(searches.run(turn_of(7, 99), release.wait))
    finally:
        release.set()
    assert await asyncio.gather(*tasks, server) == [True] * (members * each + 2)
    assert await searches.run(turn_of(None, 99), release.wait) is True  # drained: taken again
