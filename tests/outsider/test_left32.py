"""Leftovers of the session of 2026-12-04 (tests/outsider/PLAN.md, "Leftovers of this session
(left32)"): `restore`'s closing line and the PostgreSQL case, `health` after a clean stop.

Through `glossary-bot run` against the fake Discord and the command line, with real SQLite
files."""

from __future__ import annotations

import signal
import sqlite3
from pathlib import Path

from bot.discord_app.health import _forget_stop
from bot.heartbeat import check_heartbeat
from tests.polling import eventually
from tests.resilience.botproc import CLI_ENV, BotProcess, glossary_bot, glossary_bot_waited

from .conftest import Scene
from .test_round25 import _alias, _aliases, _names, _size


async def _backup_then_stop(
    scene: Scene, tmp_path: Path, backup: Path, sig: signal.Signals
) -> None:
    """A bot on the scene's file: an alias, a backup, two aliases more, then `sig`."""
    db = scene.db_path
    env = {"GLOSSARY_CACHE_DIR": str(tmp_path / "cache"), "COOLDOWN_USES": "50"}
    async with BotProcess(scene.fake, db, cwd=tmp_path, **env) as bot:
        await _alias(scene, "qq before", "rag")
        status, output = glossary_bot_waited(
            CLI_ENV, tmp_path, "backup", str(backup), "--db", str(db)
        )
        assert status == 0, output
        for n in range(2):
            await _alias(scene, f"qq after {n}", "kv-cache")
        await bot.stop(sig)


async def test_restore_after_a_crash_names_the_kept_log_with_its_folder(
    scene: Scene, tmp_path: Path
) -> None:
    """The closing line said "remove it, and any glossary-bot.db.before-restore-wal, when done":
    the kept log without its folder, which an operator in another folder (a container's
    /data) cannot act on. Now its whole path, as the kept database's."""
    db, backup = scene.db_path, tmp_path / "b.db"
    await _backup_then_stop(scene, tmp_path, backup, signal.SIGKILL)
    assert _size(Path(f"{db}-wal")) > 0  # the crash left the log
    status, output = glossary_bot_waited(CLI_ENV, tmp_path, "restore", str(backup), "--db", str(db))
    assert status == 0, output
    kept = Path(f"{db}.before-restore")
    assert output.splitlines()[-1] == (
        f"the database it replaced is kept as {kept}, its write-ahead log as {kept}-wal "
        "(remove both when done)"
    ), output
    assert _size(Path(f"{kept}-wal")) > 0
    assert _aliases(tmp_path, kept) == ["qq after 0", "qq after 1", "qq before"]


async def test_restore_after_a_clean_stop_keeps_no_empty_log(scene: Scene, tmp_path: Path) -> None:
    """After a clean stop and a `backup`, an empty `-wal` is beside the file (everything is in
    the file); `restore` kept it as an empty `….before-restore-wal` beside the kept file, and
    named it. Now an empty log is not kept, and the line names the kept file alone."""
    db, backup = scene.db_path, tmp_path / "b.db"
    await _backup_then_stop(scene, tmp_path, backup, signal.SIGTERM)
    # A backup of the stopped bot's file first, as one does before a restore: SQLite's reader
    # leaves an empty log beside the file (it holds nothing: the stop folded it in).
    status, output = glossary_bot_waited(
        CLI_ENV, tmp_path, "backup", str(tmp_path / "now.db"), "--db", str(db)
    )
    assert status == 0, output
    assert f"{db.name}-wal" not in _names(db.parent)  # `backup` leaves none now (left34)
    # Another read-only reader (the sqlite3 shell, say) still leaves an empty one.
    reader = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)
    reader.execute("SELECT count(*) FROM sqlite_schema").fetchone()
    reader.close()
    assert _size(Path(f"{db}-wal")) == 0
    status, output = glossary_bot_waited(CLI_ENV, tmp_path, "restore", str(backup), "--db", str(db))
    assert status == 0, output
    kept = Path(f"{db}.before-restore")
    assert output.splitlines()[-1] == (
        f"the database it replaced is kept as {kept} (remove it when done)"
    ), output
    assert f"{kept.name}-wal" not in _names(kept.parent)
    assert _aliases(tmp_path, kept) == ["qq after 0", "qq after 1", "qq before"]
    assert _aliases(tmp_path, db) == ["qq before"]


def test_restore_of_a_sqlite_backup_on_postgresql_says_to_migrate(tmp_path: Path) -> None:
    """With DATABASE_URL, `restore` offered `pg_restore` for whatever file it was given; a
    SQLite backup (what `backup` made before the move to PostgreSQL) is no dump pg_restore
    reads. Now it says so, and names `migrate-db`, which copies a SQLite file into PostgreSQL."""
    one = tmp_path / "one.json"
    one.write_text('[{"guild_id": 1, "alias": "qq one", "entry_id": "rag"}]', encoding="utf-8")
    db = tmp_path / "b.db"
    status, output = glossary_bot_waited(
        CLI_ENV, tmp_path, "aliases", "import", str(one), "--db", str(db)
    )
    assert status == 0, output
    url = "postgresql://glossary:secret@db.example:5432/glossary"
    status, output = glossary_bot_waited(CLI_ENV, tmp_path, "restore", str(db), "--db", url)
    assert status == 1, output
    assert "pg_restore" not in output, output
    assert "secret" not in output, output
    assert output == (
        f"glossary-bot: error: {db} is a SQLite database, which cannot be restored into "
        "PostgreSQL: copy it in with `glossary-bot migrate-db --from "
        f"{db} --to postgresql://glossary@db.example:5432/glossary` (the bots stopped; "
        "it copies into an empty database, --force adds to one holding data); nothing was "
        "changed\n"
    ), output


async def test_health_after_a_clean_stop_says_the_bot_stopped(scene: Scene, tmp_path: Path) -> None:
    """After a clean stop the heartbeat file was removed, and `health` said "no heartbeat …
    yet (starting, or never connected)" of a bot that had run and stopped. Now the stop leaves
    the file saying when the bot stopped, and `health` says so; still unhealthy (exit 1: a
    stopped bot answers nobody, as the container's HEALTHCHECK must see)."""
    heartbeat = tmp_path / "heartbeat"
    settings = {"HEARTBEAT_PATH": str(heartbeat), "GLOSSARY_CACHE_DIR": str(tmp_path / "cache")}
    async with BotProcess(scene.fake, scene.db_path, cwd=tmp_path, **settings) as bot:
        await _alias(scene, "qq one", "rag")  # connected and answering
        await eventually(heartbeat.exists, "the first heartbeat")
        assert await bot.stop() == 0
    status, said = await glossary_bot(
        {**CLI_ENV, "HEARTBEAT_PATH": str(heartbeat)}, tmp_path, "health"
    )
    assert status == 1, said
    assert said.startswith("stopped: the bot stopped cleanly "), said
    assert said.rstrip().endswith(" s ago, and has not connected since"), said
    assert "starting" not in said, said


def test_health_reads_a_stop_from_the_heartbeat_file(tmp_path: Path) -> None:
    """What the stop writes, read back: how long ago, from the time in the file."""
    heartbeat = tmp_path / "heartbeat"
    heartbeat.write_text("stopped at 1000\n", "utf-8")
    assert check_heartbeat(heartbeat, now=1090.0) == (
        False,
        "stopped: the bot stopped cleanly 90 s ago, and has not connected since",
    )


def test_a_bot_starting_again_is_starting_not_stopped(tmp_path: Path) -> None:
    """A bot started on the file the stop left: until its first heartbeat, `health` says it
    is starting (what the keeper does first), not that it stopped."""
    heartbeat = tmp_path / "heartbeat"
    heartbeat.write_text("stopped at 1000\n", "utf-8")
    _forget_stop(heartbeat)
    healthy, said = check_heartbeat(heartbeat, now=1090.0)
    assert not healthy
    assert said.endswith("yet (starting, or never connected)"), said
    heartbeat.write_text("1000\n\n", "utf-8")  # a heartbeat: not the keeper's to remove
    _forget_stop(heartbeat)
    assert check_heartbeat(heartbeat)[0]  # its time is the file's: a moment ago
