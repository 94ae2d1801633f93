"""Leftovers found this session (tests/outsider/PLAN.md, left38): `check --db` and `stats` on
damaged SQLite files, the stop's line about answers still under way, a DISCORD_TOKEN too short
to be one.

`glossary-bot` on real SQLite files, damaged byte by byte."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from .test_left24 import _cli
from .test_round20 import _database


def _lookups_damaged(path: Path, offset: int, data: bytes) -> Path:
    """A bot's database (30 lookup counts) with `data` written over the page of its `lookups`
    table at `offset` (from the page's end when negative): the aliases and terms untouched."""
    _database(path, lookups=30)
    with contextlib.closing(sqlite3.connect(path)) as conn:
        (root,) = conn.execute(
            "SELECT rootpage FROM sqlite_schema WHERE name = 'lookups'"
        ).fetchone()
    whole = bytearray(path.read_bytes())
    size = int.from_bytes(whole[16:18], "big")
    at = (root - 1) * size + (offset if offset >= 0 else size + offset)
    whole[at : at + len(data)] = data
    path.write_bytes(whole)
    return path


def test_check_db_runs_the_integrity_check_that_stats_fails(tmp_path: Path) -> None:
    """Item 1: a file whose `lookups` page is damaged, in a writable folder: `stats` refuses it,
    but `check --db` read only the aliases and terms and said "0 error(s)". Now it runs SQLite's
    quick_check first and says what failed, in one line naming the file."""
    _lookups_damaged(tmp_path / "live.db", 0, b"\xff")  # the page's type: no b-tree page
    stats = _cli(tmp_path, "stats", "--db", "live.db")
    assert stats.returncode == 1, stats
    checked = _cli(tmp_path, "check", "--db", "live.db")
    assert checked.returncode == 1, checked
    errors = [line for line in checked.stdout.splitlines() if ": error: " in line]
    assert errors == [
        "live.db: error: cannot read the database: it is damaged or not a SQLite database "
        "(database disk image is malformed)"
    ], checked.stdout
    assert "1 error(s)" in checked.stdout, checked.stdout


def test_check_db_names_what_quick_check_found(tmp_path: Path) -> None:
    """Item 1: damage that quick_check reports (not an error of its own): said on one line."""
    _lookups_damaged(tmp_path / "live.db", 8, b"\xff\xff")  # its first cell's offset
    checked = _cli(tmp_path, "check", "--db", "live.db")
    assert checked.returncode == 1, checked
    errors = [line for line in checked.stdout.splitlines() if ": error: " in line]
    assert len(errors) == 1, checked.stdout
    assert errors[0].startswith(
        "live.db: error: cannot read the database: it fails SQLite's integrity check: "
    ), errors


def test_stats_on_a_stored_text_that_is_no_utf8_names_the_file_and_what_to_do(
    tmp_path: Path,
) -> None:
    """Item 2: damage inside a stored text (quick_check reads no text: it says "ok") made
    `stats` say "database error: Could not decode to UTF-8 column 'entry_id' with text '…'",
    the bytes garbled. Now one line naming the file, the column and what to do."""
    _lookups_damaged(tmp_path / "g.db", -20, b"\xff" * 10)  # inside the last row's entry id
    done = _cli(tmp_path, "stats", "--db", "g.db")
    assert done.returncode == 1, done
    assert done.stderr == (
        "glossary-bot: error: g.db is damaged: a text in its column 'entry_id' is not UTF-8; "
        "restore it from a backup (glossary-bot restore)\n"
    ), done.stderr
