"""What swap48 and review48 left (swap49), through the real program: `glossary-bot run` against
the fake Discord, the command line, real SQLite files and real PostgreSQL.

`health` of a bot whose writes stopped (swap48's guard, a schema dropped) said only "the
database at … is not writable"; the reason was in the log alone. Now the line says why, in the
words the store decided it in (one home: the backend's error; health reads it)."""

from __future__ import annotations

import shutil
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import asyncpg
import pytest

from bot.discord_app.app import OUTDATED_FORM, GlossaryBot
from bot.glossary.letters import MARKER
from tests.conftest import TEST_DATABASE_URL
from tests.resilience.botproc import CLI_ENV, BotProcess, glossary_bot, glossary_bot_run_here
from tests.storage.conftest import fresh_schema

from .conftest import Scene
from .test_forged47 import form_submitted
from .test_round6 import health_until
from .test_round20 import _database
from .test_swap48 import alias_added, answers_but_refuses_writes, query_db, remove_file


def _exists(path: Path) -> bool:
    return path.exists()


async def test_health_says_why_writes_stopped_when_the_shm_was_deleted(
    scene: Scene, tmp_path: Path
) -> None:
    db = scene.db_path
    heartbeat = tmp_path / "heartbeat"
    env = {**CLI_ENV, "HEARTBEAT_PATH": str(heartbeat)}
    async with BotProcess(scene.fake, db, cwd=tmp_path, HEARTBEAT_PATH=str(heartbeat)) as bot:
        await bot.wait_for_output(r"healthy: heartbeat in", within=30)
        remove_file(Path(f"{db}-shm"))
        await bot.wait_for_output("changed under the running bot", within=30)
        said = await health_until(env, tmp_path, "unhealthy")
        assert said.startswith("1 unhealthy: connected to Discord, but the database at "), said
        assert len(said.splitlines()) == 1, said
        assert "not writable: the database file changed under the running bot" in said, said
        assert "(its -shm was deleted or replaced)" in said, said
        assert "until the bot is restarted" in said, said  # what to do
        assert said.count(str(db)) == 1, said  # the file named once
        line = await bot.wait_for_output(r"unhealthy: connected to Discord, but the database")
        assert "its -shm was deleted or replaced" in line, line
        status, told = await glossary_bot(env, tmp_path, "health")
        assert status == 1, told
        assert heartbeat.read_text(encoding="utf-8").splitlines()[0] == told.strip(), told


async def test_a_wal_deleted_under_the_running_bot_alone_is_taken_up(
    scene: Scene, tmp_path: Path
) -> None:
    """swap48 stopped the writes until a restart for a deleted -wal. Deleted alone (the file
    as the bot last vouched for it), what the deleted log holds is written into the file and
    the bot writes on into a new one: one WARNING naming DATABASE_PATH, `health` healthy,
    moderator changes taken, nothing lost."""
    fake, db = scene.fake, scene.db_path
    heartbeat = tmp_path / "heartbeat"
    env = {**CLI_ENV, "HEARTBEAT_PATH": str(heartbeat)}
    async with BotProcess(fake, db, cwd=tmp_path, HEARTBEAT_PATH=str(heartbeat)) as bot:
        await bot.wait_for_output(r"healthy: heartbeat in", within=30)
        await alias_added(scene)
        remove_file(Path(f"{db}-wal"))
        line = await bot.wait_for_output("was deleted under the running bot", within=30)
        assert "WARNING" in line, line
        assert f"DATABASE_PATH={db}" in line, line
        assert "nothing was lost" in line, line
        again = await fake.slash(
            scene.moderator,
            "alias add",
            {"alias": "quuxwidget", "term": "rag"},
            channel=scene.channel,
        )
        said = (await again.final_message())["content"]
        assert said.startswith("Added"), said
        assert query_db(db, "SELECT key FROM aliases ORDER BY key") == [
            ("quuxwidget",),
            ("zorblax",),
        ]
        status, told = await glossary_bot(env, tmp_path, "health")
        assert status == 0, told
        assert told.startswith("healthy"), told
        assert not [x for x in bot.lines if "ERROR" in x or "unhealthy" in x], bot.lines
    assert query_db(db, "SELECT key FROM aliases ORDER BY key") == [("quuxwidget",), ("zorblax",)]
    assert query_db(db, "PRAGMA integrity_check") == [("ok",)]


@pytest.mark.postgres
async def test_health_says_why_writes_stopped_when_the_schema_was_dropped(
    scene: Scene, tmp_path: Path
) -> None:
    heartbeat = tmp_path / "heartbeat"
    async with fresh_schema(TEST_DATABASE_URL, "swap49") as url:
        settings = {"DATABASE_URL": url, "HEARTBEAT_PATH": str(heartbeat)}
        async with BotProcess(scene.fake, tmp_path / "unused.db", cwd=tmp_path, **settings) as bot:
            await bot.wait_for_output(r"healthy: heartbeat in", within=30)
            schema = dict(parse_qsl(urlsplit(url).query))["search_path"]
            admin = await asyncpg.connect(TEST_DATABASE_URL)
            try:
                await admin.execute(f"DROP SCHEMA {schema} CASCADE")
            finally:
                await admin.close()
            said = await health_until(dict(bot.env), tmp_path, "unhealthy")
            assert said.startswith("1 unhealthy: connected to Discord, but the database at "), said
            assert len(said.splitlines()) == 1, said
            assert "not writable: the tables of the database are gone" in said, said
            assert "(its schema dropped" in said, said
            assert "Restart the bot" in said, said
            assert said.count("postgresql://") == 1, said  # the database named once
            password = TEST_DATABASE_URL.partition("@")[0].rpartition(":")[2]
            assert f":{password}@" not in said, said


async def test_a_backup_copied_over_the_running_bots_file_with_its_log_left_is_said(
    scene: Scene, tmp_path: Path
) -> None:
    """swap48 left it: `cp backup.db glossary.db` over the running bot's file, its -wal left
    beside it (the same file, the same logs, a database's header), went unnoticed; the bot's
    log was later written over the copy, undoing the restore. Now one ERROR naming
    DATABASE_PATH and `restore`, `health` unhealthy saying why, /define answering, moderator
    changes refused."""
    fake, db = scene.fake, scene.db_path
    heartbeat = tmp_path / "heartbeat"
    env = {**CLI_ENV, "HEARTBEAT_PATH": str(heartbeat)}
    backup = tmp_path / "backup.db"
    async with BotProcess(fake, db, cwd=tmp_path, HEARTBEAT_PATH=str(heartbeat)) as bot:
        await bot.wait_for_output(r"healthy: heartbeat in", within=30)
        await alias_added(scene)
        status, said = await glossary_bot(CLI_ENV, tmp_path, "backup", "--db", str(db), str(backup))
        assert status == 0, said
        shutil.copyfile(backup, db)  # by hand, over the running bot's file; its -wal stays
        assert _exists(Path(f"{db}-wal"))

        await bot.wait_for_output("changed under the running bot:", within=30)
        [line] = [x for x in bot.lines if "changed under the running bot:" in x]
        assert "ERROR" in line, line
        assert f"DATABASE_PATH={db}" in line, line
        assert "written over in place" in line, line
        assert "glossary-bot restore" in line, line
        said = await health_until(env, tmp_path, "unhealthy")
        assert said.startswith("1 unhealthy: connected to Discord, but the database at "), said
        assert "(it was written over in place" in said, said

        await answers_but_refuses_writes(scene)
        assert [x for x in bot.lines if "changed under the running bot:" in x] == [line]
    assert query_db(db, "SELECT key FROM aliases") == [("zorblax",)]


# --- review48's leftovers ----------------------------------------------------------------------


@pytest.mark.parametrize("lead", ["", "a"], ids=["even", "odd"])
async def test_a_given_back_text_cut_to_fit_never_ends_on_a_lone_escape(
    scene: Scene, bot: GlossaryBot, lead: str
) -> None:
    """review48: the text given back is escaped, then cut to 2,000 characters: "*" typed 4,000
    times is "\\*" 4,000 times, and the cut fell between a backslash and its star as often as
    not ("\\ […]": a stray backslash shown, the star it escaped gone). `lead` shifts the cut by
    one character, so one of the two lands there. Now the cut keeps each escape whole."""
    handle = await form_submitted(scene, "gb:term-form:1", {"title": lead + "*" * 3999})
    content = (await handle.final_message())["content"]
    assert content.startswith(OUTDATED_FORM), content
    assert len(content) <= 2000, len(content)
    body = content.removesuffix(MARKER)
    assert body != content, content[-40:]  # cut, with the marker
    escapes = len(body) - len(body.rstrip("\\"))
    assert escapes % 2 == 0, content[-40:]  # every backslash left escapes the star after it
    assert body.endswith("\\*"), content[-40:]
    assert not scene.fake.pop_violations()


@pytest.mark.parametrize("where", ["kept", "oldest"])
def test_a_kept_copy_that_is_a_loop_of_links_is_said_and_the_restore_done(
    tmp_path: Path, where: str
) -> None:
    """review48: `restore`'s kept copies (`DATABASE_PATH.before-restore`, `.N` for earlier
    restores) were resolved without the loop check the other paths have: a copy among the
    oldest that was a loop of symbolic links ended the restore (done by then) with a
    `RuntimeError` traceback; one at `.before-restore` itself was removed without a word. Now
    the link is removed (it holds no database) and said, and the restore is done."""
    db, backup = _database(tmp_path / "g.db"), _database(tmp_path / "b.db", lookups=3)
    kept = tmp_path / "g.db.before-restore"
    if where == "kept":
        loop = kept
    else:
        for n in ("", ".2", ".3"):
            shutil.copyfile(backup, f"{kept}{n}")
        loop = Path(f"{kept}.1")  # the oldest: removed to keep three beside the new copy
    loop.symlink_to("other")
    (tmp_path / "other").symlink_to(loop.name)
    # In the test's process (`restore` runs in processes of its own in test_readme35): a
    # traceback past `main` is printed as a process prints it.
    done = glossary_bot_run_here(CLI_ENV, tmp_path, "restore", "--db", str(db), str(backup))
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    assert "Traceback" not in out, out
    [said] = [line for line in out.splitlines() if "loop" in line]
    assert (
        said == f"removed the link {loop}: it led through a loop of symbolic links, to no database"
    ), said
    assert not loop.is_symlink(), out
    assert kept.is_file(), out  # the database replaced, kept
    assert not kept.is_symlink(), out
    assert f"restored {db} from {backup}" in out, out
    assert query_db(db, "SELECT count(*) FROM lookups") == [(3,)]
