"""Review of last session's features (tests/outsider/PLAN.md, "Review of last session's
features (review33)"): `restore`, `check --db`, health's "stopped", `/define`'s worker, the
`late` count, attacked as an outsider would.

Through `glossary-bot run` against the fake Discord and the command line, with real SQLite
files (and PostgreSQL where said)."""

from __future__ import annotations

import asyncio
import json
import signal
import sqlite3
import threading
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.discord_app.app import GlossaryBot
from bot.discord_app.health import _forget_stop
from bot.discord_app.member_searches import turn_of
from bot.heartbeat import check_heartbeat
from bot.search.index import SearchIndex
from bot.storage import NotAGlossaryDatabase, Store
from tests.conftest import TEST_DATABASE_URL
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import embed_of, is_ephemeral
from tests.fake_discord.gateway import AUTHENTICATION_FAILED
from tests.polling import eventually
from tests.resilience.botproc import (
    CLI_ENV,
    BotProcess,
    glossary_bot_here,
    glossary_bot_run,
    glossary_bot_run_here,
    glossary_bot_waited,
)
from tests.resilience.helpers import warned
from tests.resilience.test_lost_answers_counted import CALLBACK
from tests.resilience.test_lost_answers_counted import _count as _interactions
from tests.resilience.test_process_faults import NO_COOLDOWN, answered, final
from tests.storage.conftest import fresh_schema

from .conftest import Scene
from .test_left24 import in_a_read_only_folder
from .test_left32 import _backup_then_stop
from .test_round20 import _database
from .test_round25 import _alias, _names, _size

# The commands here run in the test's process (`glossary_bot_here`: a process each took 5-10 s
# of this file's time on a loaded machine) except `restore` beside a running bot (E2), where the
# two processes' locks are the point. Each command runs in a process of its own in
# tests/cli/test_bad_input, `restore` of a backup in test_readme35 too.


def _aliases_here(cwd: Path, db: Path) -> list[str]:
    """test_round25's `_aliases`, `aliases export` run in this process."""
    status, output = glossary_bot_here(CLI_ENV, cwd, "aliases", "export", "--db", str(db))
    assert status == 0, output
    return sorted(row["alias"] for row in json.loads(output))


def test_a_command_run_here_says_what_its_own_process_says(tmp_path: Path) -> None:
    """`glossary_bot_here`, which this file's steps use, against `glossary_bot_run`: the same
    exit status, stdout and stderr, for a refusal, an error, a success and a usage error."""
    live = _database(tmp_path / "live.db")
    (tmp_path / "empty.db").write_bytes(b"")
    _another_programs_database(tmp_path / "notes.db", 3)
    for command in (
        ("restore", "notes.db", "--db", str(live)),
        ("check", "--db", "empty.db"),
        ("aliases", "export", "--db", "live.db"),
        ("stats", "--limit", "0", "--db", "live.db"),
    ):
        here = glossary_bot_run_here(CLI_ENV, tmp_path, *command)
        there = glossary_bot_run(CLI_ENV, tmp_path, *command)
        assert (here.returncode, here.stdout, here.stderr) == (
            there.returncode,
            there.stdout,
            there.stderr,
        ), command
        assert (here.stdout + here.stderr).strip(), command


async def test_undoing_a_restore_made_after_a_crash_brings_back_the_crashed_bots_writes(
    scene: Scene, tmp_path: Path
) -> None:
    """Plan line E1: after a crash, `restore` keeps the replaced file as `….before-restore` and
    its log as `….before-restore-wal`, saying nothing it held is lost. Undoing it (`restore`
    of the kept file) must then bring back what the crashed bot wrote, its log's part too."""
    db, backup = scene.db_path, tmp_path / "b.db"
    await _backup_then_stop(scene, tmp_path, backup, signal.SIGKILL)
    status, output = glossary_bot_here(CLI_ENV, tmp_path, "restore", str(backup), "--db", str(db))
    assert status == 0, output
    kept = Path(f"{db}.before-restore")
    assert _size(Path(f"{kept}-wal")) > 0  # the crashed bot's last writes are there
    status, output = glossary_bot_here(CLI_ENV, tmp_path, "restore", str(kept), "--db", str(db))
    assert status == 0, output
    assert _aliases_here(tmp_path, db) == ["qq after 0", "qq after 1", "qq before"]
    # The restored backup it replaced is kept in turn.
    assert _aliases_here(tmp_path, kept) == ["qq before"]


def _another_programs_database(path: Path, version: int) -> bytes:
    """A SQLite file of some other program that numbers its schema in `user_version`, as many
    do (application id 0): its bytes, to compare after."""
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (body TEXT)")
    conn.execute("INSERT INTO notes VALUES ('mine')")
    conn.execute(f"PRAGMA user_version = {version}")
    conn.commit()
    conn.close()
    return path.read_bytes()


async def test_restore_refuses_another_programs_database_with_a_schema_version(
    scene: Scene, tmp_path: Path
) -> None:
    """Plan line E3: `restore` took any SQLite file with `user_version` set as one of ours
    (application id 0 was read as "older than the id"; every file the bot ever made has it):
    the bot's database was replaced by another program's, which the next start then tried
    to upgrade. Now refused in one line, nothing changed."""
    db, backup = scene.db_path, tmp_path / "b.db"
    await _backup_then_stop(scene, tmp_path, backup, signal.SIGTERM)
    before = db.read_bytes()
    other = tmp_path / "notes.db"
    _another_programs_database(other, 3)
    status, output = glossary_bot_here(CLI_ENV, tmp_path, "restore", str(other), "--db", str(db))
    assert status == 1, output
    assert output.strip() == (
        f"glossary-bot: error: {other} is not a Glossary Bot database; nothing was changed"
    ), output
    assert db.read_bytes() == before
    assert f"{db.name}.before-restore" not in _names(db.parent)


@pytest.mark.parametrize("version", [1, 3, 5])
async def test_the_bot_does_not_upgrade_another_programs_database(
    tmp_path: Path, version: int
) -> None:
    """Plan line E3, beside: DATABASE_PATH naming another program's SQLite file whose
    `user_version` is set: the bot's guard ("never migrates some other application's
    database") let it through, and applied its later migrations to it: at version 3 it
    created its `suggestions` table there and set the version to 4, then failed with "no
    such table: term_audit_log". Now refused as another application's, the file untouched."""
    path = tmp_path / "notes.db"
    before = _another_programs_database(path, version)
    with pytest.raises(NotAGlossaryDatabase, match="not a Glossary Bot database"):
        await Store.open(str(path), flush_interval=None)
    assert path.read_bytes() == before


def test_check_db_leaves_a_backups_bytes_as_they_were(tmp_path: Path) -> None:
    """Plan line E5: `check --db` is said to only read, but it opened the file as the bot does
    and switched it to WAL mode: a backup's bytes changed (its header), and a checksum kept
    beside it no longer matched. Now a read leaves the file in the mode it is in."""
    live, backup = _database(tmp_path / "live.db"), tmp_path / "b.db"
    status, output = glossary_bot_here(CLI_ENV, tmp_path, "backup", str(backup), "--db", str(live))
    assert status == 0, output
    before = backup.read_bytes()
    for command in (("check", "--db", "b.db"), ("stats", "--db", "b.db")):
        status, output = glossary_bot_here(CLI_ENV, tmp_path, *command)
        assert status == 0, output
        assert backup.read_bytes() == before, command
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("b.db")) == ["b.db"]


def test_check_db_reads_a_database_alone_in_a_read_only_folder(tmp_path: Path) -> None:
    """Plan line E5: a bot's file in WAL mode alone in a read-only folder (a snapshot, a
    read-only mount): `backup` and `migrate-db` read it, `check --db` said "cannot read the
    database: the database file cannot be opened". Now checked, the folder as it was."""
    folder = tmp_path / "snap"
    done, before = in_a_read_only_folder(folder, "check", "--db", "snap/g.db")
    assert done.returncode == 0, done
    assert done.stdout.strip().endswith(
        "1 server with aliases or terms; 0 error(s), 0 warning(s)"
    ), done.stdout
    assert sorted(p.name for p in folder.iterdir()) == ["g.db"]
    assert (folder / "g.db").read_bytes() == before


def test_restore_from_a_snapshot_in_a_read_only_folder(tmp_path: Path) -> None:
    """Plan line E4: last night's snapshot of the data volume, mounted read-only, holds the
    bot's file alone (WAL mode, as the bot leaves it). `backup` reads such a file; `restore`
    said "is not a usable SQLite database: unable to open database file". Now restored, the
    snapshot's folder as it was."""
    folder = tmp_path / "snap"
    done, before = in_a_read_only_folder(folder, "restore", "snap/g.db", "--db", "bot.db")
    assert done.returncode == 0, done
    assert done.stdout.startswith("restored bot.db from snap/g.db"), done.stdout
    assert sorted(p.name for p in folder.iterdir()) == ["g.db"]
    assert (folder / "g.db").read_bytes() == before
    status, output = glossary_bot_here(
        CLI_ENV, tmp_path, "aliases", "export", "--db", str(tmp_path / "bot.db")
    )
    assert status == 0, output
    assert '"stash"' in output, output


async def test_too_many_searches_waiting_in_direct_messages_says_nothing_of_a_server(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Plan line E9: every direct message shares one turn in `/define`'s worker (DM_SCOPE),
    so the member past its cap, alone in a DM, was told "Too many searches are waiting in
    this server right now". Now a DM's refusal names no server; a server's `/define` meanwhile
    takes its own turn (deferred, then answered), as before. (The cap is set to 2 here: the
    shipped 50 is readme30's N5.)"""
    searches = bot.state.term_searches
    searches.most_waiting = 2
    release = threading.Event()
    bobs = turn_of(None, scene.bob.id)  # left35: each member's DMs their own turn
    held = [asyncio.create_task(searches.run(bobs, release.wait)) for _ in range(2)]
    try:  # both take their places first: the loop runs them before the fake's request
        dm = scene.fake.dm_channel(scene.bob)
        asked = await scene.fake.slash(scene.bob, "define", {"term": "kv cache"}, channel=dm)
        refused = await asked.final_message()
        assert refused["content"] == (
            "Too many searches are waiting right now: try again in a moment."
        ), refused
        assert is_ephemeral(refused)
        in_server = await scene.fake.slash(
            scene.alice, "define", {"term": "kv cache"}, channel=scene.channel
        )
        assert (await in_server.response())["type"] == 5, in_server.records  # deferred
    finally:
        release.set()
    assert await asyncio.gather(*held) == [True, True]
    assert embed_of(await in_server.final_message())["title"] == "KV Cache"


async def test_too_many_messages_waiting_in_direct_messages_says_nothing_of_a_server(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Plan line E9, the same for Explain terms in a DM (members' worker, DM_SCOPE's turn)."""
    searches = bot.state.member_searches
    searches.most_waiting = 2
    release = threading.Event()
    bobs = turn_of(None, scene.bob.id)  # left35: each member's DMs their own turn
    held = [asyncio.create_task(searches.run(bobs, release.wait)) for _ in range(2)]
    try:  # both take their places first: the loop runs them before the fake's request
        dm = scene.fake.dm_channel(scene.bob)
        said = await scene.fake.user_message(scene.bob, dm, "what is a kv cache and rag?")
        asked = await scene.fake.message_command(scene.bob, "Explain terms", said)
        refused = await asked.final_message()
    finally:
        release.set()
    assert refused["content"] == (
        "Too many messages are waiting to be read right now: try again in a moment."
    ), refused
    assert await asyncio.gather(*held) == [True, True]


async def test_health_after_the_bot_stopped_on_an_error_does_not_say_it_stopped_cleanly(
    scene: Scene, tmp_path: Path
) -> None:
    """Plan line E7: the stop's "stopped at" line was written however the connection ended:
    Discord revoking the token (4004, exit 2) left `health` saying "the bot stopped cleanly",
    to an operator who must go and fix DISCORD_TOKEN. Now it says the bot stopped on an error
    (its log says which); a bot starting on the file reads "starting" again, as after a clean
    stop."""
    heartbeat = tmp_path / "heartbeat"
    settings = {"HEARTBEAT_PATH": str(heartbeat), "GLOSSARY_CACHE_DIR": str(tmp_path / "cache")}
    async with BotProcess(scene.fake, scene.db_path, cwd=tmp_path, **settings) as bot:
        await _alias(scene, "qq one", "rag")  # connected and answering
        await eventually(heartbeat.exists, "the first heartbeat")
        await scene.fake.gateway.drop(code=AUTHENTICATION_FAILED)  # Discord: token revoked
        assert bot.process is not None
        async with asyncio.timeout(30):
            code = await bot.process.wait()
        await bot.stop()
    assert code == 2, bot.output
    status, said = glossary_bot_here(
        {**CLI_ENV, "HEARTBEAT_PATH": str(heartbeat)}, tmp_path, "health"
    )
    assert status == 1, said
    assert "cleanly" not in said, said
    assert said.startswith("stopped: the bot stopped on an error "), said
    assert said.rstrip().endswith(" s ago (its log says which), and has not connected since"), said
    _forget_stop(heartbeat)  # a bot starting on it
    assert not check_heartbeat(heartbeat)[1].startswith("stopped"), heartbeat


def _held_search(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """Search held on the term "hold" until the event returned is set (so others queue behind
    it in the worker), raising on "boom", the rest searched as usual."""
    release = threading.Event()
    real = SearchIndex.search

    def search(index: SearchIndex, text: str, *args: Any, **kwargs: Any) -> Any:
        if text == "hold":
            release.wait(30)
        if text == "boom":
            raise ValueError("a bug in search")
        return real(index, text, *args, **kwargs)

    monkeypatch.setattr(SearchIndex, "search", search)
    return release


async def test_a_define_whose_search_raises_mid_burst_leaves_the_others_answered(
    scene: Scene, bot: GlossaryBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Plan line E10: `/define`'s worker (review29's W4 tried the members' one): a search that
    raises while others of the server wait behind it. The member gets the short error line,
    every other `/define` of the burst its card, and the worker is idle after."""
    release = _held_search(monkeypatch)
    fake, channel = scene.fake, scene.channel
    try:
        held = await fake.slash(scene.bob, "define", {"term": "hold"}, channel=channel)
        asked = [
            await fake.slash(scene.alice, "define", {"term": term}, channel=channel)
            for term in ("kv cache", "boom", "rag")
        ]
        for handle in asked:
            assert (await handle.response())["type"] == 5, handle.records  # deferred
    finally:
        release.set()
    await held.final_message()
    cards = [await handle.final_message() for handle in asked]
    assert embed_of(cards[0])["title"] == "KV Cache"
    assert cards[1]["content"].startswith("Something went wrong on my side (error id"), cards[1]
    assert not cards[1]["embeds"]
    assert embed_of(cards[2])["title"] == "Retrieval-Augmented Generation (RAG)"
    assert bot.state.term_searches.idle()


async def test_a_stop_while_defines_wait_in_the_worker_answers_them_honestly(
    scene: Scene, tmp_path: Path
) -> None:
    """Plan line E11: SIGTERM while 30 `/define` of one server, each a 100-character term that
    names nothing (30-130 ms of search each), wait in `/define`'s worker. readme30 read the
    code as telling such a member "Too many searches are waiting in this server": each one
    taken is answered with its own answer (or, past the stop's deadline, left as the stop
    leaves any), none with that line, and the bot exits 0."""
    fake = scene.fake
    fake.settle_before_actions = False  # a burst: nobody waits for anyone else's answer
    users = [scene.alice, scene.bob, scene.admin, scene.owner, scene.moderator]
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, **NO_COOLDOWN) as bot:
        handles = [
            await fake.slash(
                users[n % len(users)],
                "define",
                {"term": (f"{n:02d}" + "qzx vbnm " * 11).rstrip()},  # 100: the box's most
                channel=scene.channel,
            )
            for n in range(30)
        ]
        await fake.waiter.wait_for(lambda: answered(handles) >= 1, "the first answer")
        assert await bot.stop(signal.SIGTERM) == 0, bot.output
    await fake.settle()
    said = [final(handle) for handle in handles]
    assert not [m for m in said if m and "Too many searches" in str(m.get("content"))], said
    assert "Traceback" not in bot.output, bot.output


async def test_restore_from_the_live_file_of_a_bot_running_in_another_folder(
    scene: Scene, tmp_path: Path
) -> None:
    """Plan line E2: the "backup" is the file a bot runs on in another folder (its log beside
    it, growing): what that bot committed is in the restored copy, the bot goes on serving
    and writing, and `restore` refuses only a bot on the target (here reached by a symlink)."""
    live, copy = scene.db_path, tmp_path / "other" / "bot.db"
    copy.parent.mkdir()
    env = {"GLOSSARY_CACHE_DIR": str(tmp_path / "cache"), "COOLDOWN_USES": "50"}
    async with BotProcess(scene.fake, live, cwd=tmp_path, **env):
        await _alias(scene, "qq live", "rag")
        status, output = glossary_bot_waited(
            CLI_ENV, tmp_path, "restore", str(live), "--db", str(copy)
        )
        assert status == 0, output
        await _alias(scene, "qq after", "rag")  # the live bot still writes
        link = tmp_path / "other" / "link.db"
        link.symlink_to(live)
        status, output = glossary_bot_waited(
            CLI_ENV, tmp_path, "restore", str(copy), "--db", str(link)
        )
        assert status == 1, output
        assert "a bot runs on this file" in output, output
    assert _aliases_here(tmp_path, copy) == ["qq live"]
    assert _aliases_here(tmp_path, live) == ["qq after", "qq live"]


NO_DATA = "holds no Glossary Bot data: no bot has run on it (is it the right database?)"


def test_check_db_on_an_empty_sqlite_file_says_no_bot_has_run_on_it(tmp_path: Path) -> None:
    """Plan line E6: `check --db` (and `stats`) on a database no bot has run on (an empty
    file, an empty PostgreSQL database: the wrong one named) said it "has schema version 0,
    older than this bot's 6; start the bot once to upgrade it", an upgrade of nothing. Now it
    says the database holds no Glossary Bot data; nothing is written either way."""
    (tmp_path / "empty.db").write_bytes(b"")
    status, output = glossary_bot_here(CLI_ENV, tmp_path, "check", "--db", "empty.db")
    assert status == 1, output
    assert f"empty.db: error: cannot read the database: it {NO_DATA}" in output, output
    assert (tmp_path / "empty.db").read_bytes() == b""


@pytest.mark.postgres
async def test_check_db_on_an_empty_postgresql_schema_says_no_bot_has_run_on_it() -> None:
    """Plan line E6 on PostgreSQL (a schema of its own): the same line, nothing created."""
    async with fresh_schema(TEST_DATABASE_URL, "review33") as url:
        status, output = glossary_bot_here(CLI_ENV, Path.cwd(), "check", "--db", url)
        assert status == 1, output
        assert NO_DATA in output, output
        pg = await asyncpg.connect(url)
        try:
            tables = await pg.fetchval(
                "SELECT count(*) FROM information_schema.tables"
                " WHERE table_schema = current_schema()"
            )
        finally:
            await pg.close()
        assert tables == 0


async def test_a_glossary_reload_while_defines_wait_in_the_worker_answers_each(
    scene: Scene, bot: GlossaryBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Plan line E10, the reload: GLOSSARY_PATHS reloaded (SIGHUP's `reload_off_loop`) while
    `/define`s wait behind a search under way: each is answered, and a `/define` after it too."""
    release = _held_search(monkeypatch)
    fake, channel = scene.fake, scene.channel
    try:
        held = await fake.slash(scene.bob, "define", {"term": "hold"}, channel=channel)
        asked = [
            await fake.slash(scene.alice, "define", {"term": term}, channel=channel)
            for term in ("kv cache", "rag")
        ]
        for handle in asked:
            assert (await handle.response())["type"] == 5, handle.records  # deferred
        assert (await bot.state.reload_off_loop()).startswith("reloaded ")
    finally:
        release.set()
    await held.final_message()
    titles = [embed_of(await handle.final_message())["title"] for handle in asked]
    assert titles == ["KV Cache", "Retrieval-Augmented Generation (RAG)"]
    after = await fake.slash(scene.bob, "define", {"term": "lora"}, channel=channel)
    assert embed_of(await after.final_message())["title"].startswith("LoRA"), after.records
    assert bot.state.term_searches.idle()


@pytest.mark.postgres
async def test_a_lost_private_answer_on_postgresql_is_counted_late_and_stored_nowhere(
    scene: Scene, start_bot: StartBot
) -> None:
    """Plan line E12: left32's `late` count, with the bot on PostgreSQL (a schema of its own):
    a private `/define` rate limited past Discord's 3 s is `late` in the metric, and neither
    a lookup nor a miss in the database once the counts are written."""
    fake = scene.fake
    cards, late = _interactions("card"), _interactions("late")
    async with fresh_schema(TEST_DATABASE_URL, "review33") as url:
        store = await Store.open(url)
        async with start_bot(store):
            fake.fail_next("POST", CALLBACK, status=429, retry_after=3.2)
            async with warned("private answer is lost"):
                await fake.slash(
                    scene.alice,
                    "define",
                    {"term": "kv cache", "private": True},
                    channel=scene.channel,
                )
            async with asyncio.timeout(10):
                # The count is made by the task's done callback: no event of ours to await.
                while _interactions("late") == late:  # noqa: ASYNC110
                    await asyncio.sleep(0)  # a turn of the loop for the task to end
            await store.flush()
            assert await store.total_lookups(scene.guild.id) == 0
        assert (_interactions("card"), _interactions("late")) == (cards, late + 1)
        pg = await asyncpg.connect(url)
        try:
            assert await pg.fetchval("SELECT coalesce(sum(count), 0) FROM lookups") == 0
            assert await pg.fetchval("SELECT coalesce(sum(count), 0) FROM misses") == 0
        finally:
            await pg.close()
