"""Last session's features attacked as an outsider would (task review27, PLAN.md "Review of
last session's features (review27)"): huge, hostile, concurrent, at the caps; through the real
bot (discord.py) against the fake Discord, the command line in a process of its own, real
SQLite files."""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
from pathlib import Path

import pytest

from tests.resilience.botproc import CLI_ENV, glossary_bot_run
from tests.resilience.conftest import without_permission_override

from .test_left24 import _cli
from .test_left27 import HAND_WRITTEN_TOPICS
from .test_round20 import _database


def a_snapshot_taken_while_the_bot_wrote(folder: Path, *companions: str) -> None:
    """`folder` (made read-only) holds a copy of a bot's `g.db` taken while 100 lookups were
    still in its write-ahead log, with those of its companion files named (`-wal`, `-shm`)."""
    live = folder.with_name("live")
    live.mkdir()
    _database(live / "g.db", lookups=10)
    with contextlib.closing(sqlite3.connect(live / "g.db")) as writer:
        writer.execute("PRAGMA wal_autocheckpoint = 0")  # the rows stay in the -wal
        with writer:
            writer.executemany(
                "INSERT INTO lookups (scope, entry_id, hour, count) VALUES (7, ?, 490001, 1)",
                [(f"in-the-wal-{n}",) for n in range(100)],
            )
        folder.mkdir()
        for name in ("g.db", *(f"g.db{suffix}" for suffix in companions)):
            shutil.copy2(live / name, folder / name)
    folder.chmod(0o555)


@pytest.mark.parametrize(
    "command",
    [
        ("backup", "--db", "snap/g.db", "copy.db"),
        ("migrate-db", "--from", "snap/g.db", "--to", "copy.db"),
    ],
)
def test_a_snapshot_with_its_write_ahead_log_but_no_shm_is_refused_naming_the_cause(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    """R22: a copy of a running bot's folder keeps `g.db` and `g.db-wal` (many backup tools
    leave out the `-shm`, which SQLite calls disposable), made read-only as a snapshot is.
    SQLite cannot read a write-ahead log without its `-shm`, nor make one in that folder:
    `backup` and `migrate-db --from` said only "the database file cannot be opened", naming
    neither the file nor why. (Read as a snapshot alone, `immutable`, it would leave the log's
    rows out without a word.) Now the line names the folder and the missing file."""
    folder = tmp_path / "snap"
    a_snapshot_taken_while_the_bot_wrote(folder, "-wal")
    try:
        done = _cli(tmp_path, *command, prefix=without_permission_override())
    finally:
        folder.chmod(0o755)
    assert done.returncode == 1, done
    assert done.stderr.count("\n") == 1, done.stderr
    assert (
        f"its folder {folder} is read-only and holds its write-ahead log g.db-wal without "
        "g.db-shm, which SQLite needs to read it: copy the folder somewhere writable first"
    ) in done.stderr, done.stderr
    assert not (tmp_path / "copy.db").exists()
    assert sorted(p.name for p in folder.iterdir()) == ["g.db", "g.db-wal"]


def test_a_snapshot_with_its_write_ahead_log_and_shm_is_copied_whole(tmp_path: Path) -> None:
    """R22's neighbour: with the `-shm` kept too, `migrate-db --from` the read-only copy
    carries the log's rows (110 lookups, not the 10 in `g.db` itself)."""
    folder = tmp_path / "snap"
    a_snapshot_taken_while_the_bot_wrote(folder, "-wal", "-shm")
    try:
        command = ("migrate-db", "--from", "snap/g.db", "--to", "copy.db")
        done = _cli(tmp_path, *command, prefix=without_permission_override())
    finally:
        folder.chmod(0o755)
    assert done.returncode == 0, done
    assert "copy.db now holds 110 lookups" in done.stdout, done.stdout


def test_check_reads_a_topics_json_saved_with_a_byte_order_mark_as_import_does(
    tmp_path: Path,
) -> None:
    """Found beside R3: a hand-written topics JSON saved by a Windows editor as "UTF-8 with
    BOM". `terms import` (and `/term import`) drop the mark and list the file's problems, each
    at its line; `check`, which the README has an operator run on such a file first, said only
    "not valid JSON: Unexpected UTF-8 BOM (decode using utf-8-sig)" (Python's words, no
    problem of the file's own). Now `check` drops the mark too."""
    (tmp_path / "g.json").write_text(HAND_WRITTEN_TOPICS, "utf-8-sig")
    checked = glossary_bot_run(CLI_ENV, tmp_path, "check", "g.json")
    assert checked.returncode == 1, checked
    assert "BOM" not in checked.stdout, checked.stdout
    assert "g.json:6 [Raid Token]: error: id: missing required field" in checked.stdout, checked
    assert "g.json:11 [topic #3]: error: id: missing required field" in checked.stdout, checked
