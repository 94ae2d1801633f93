"""Leftovers found this session (tests/outsider/PLAN.md, left38): `check --db` and `stats` on
damaged SQLite files, the stop's line about answers still under way, a DISCORD_TOKEN too short
to be one.

`glossary-bot` on real SQLite files, damaged byte by byte."""

from __future__ import annotations

import contextlib
import logging
import sqlite3
from pathlib import Path

import pytest

from bot.discord_app.cogs.terms import UNFINISHED_AT_STOP
from bot.discord_app.logs import REDACTED, redact
from bot.storage import Store
from tests.resilience.conftest import StartBot

from .conftest import Scene
from .test_left24 import _cli
from .test_left36 import _stop_during_a_save
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


def _with_a_page_never_used(path: Path) -> Path:
    """A bot's database one page longer than its pages use (a page lost to the free list, as
    a crash can leave one): quick_check reports it, and reads no damaged page to find it. A
    first cell's offset written over (this test's damage until CI failed on it) made SQLite's
    quick_check report it on most runs and fail with "malformed" on some, on the same bytes."""
    _database(path, lookups=30)
    whole = bytearray(path.read_bytes())
    size = int.from_bytes(whole[16:18], "big")
    pages = int.from_bytes(whole[28:32], "big")  # the header's database size, in pages
    whole[28:32] = (pages + 1).to_bytes(4, "big")
    path.write_bytes(whole + bytes(size))
    return path


def test_check_db_names_what_quick_check_found(tmp_path: Path) -> None:
    """Item 1: damage that quick_check reports (not an error of its own): said on one line."""
    _with_a_page_never_used(tmp_path / "live.db")
    checked = _cli(tmp_path, "check", "--db", "live.db")
    assert checked.returncode == 1, checked
    errors = [line for line in checked.stdout.splitlines() if ": error: " in line]
    assert len(errors) == 1, checked.stdout
    assert errors[0].startswith(
        "live.db: error: cannot read the database: it fails SQLite's integrity check: "
    ), errors
    assert errors[0].endswith(" is never used"), errors  # SQLite's words, on the same line


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


@pytest.mark.parametrize("in_the_stop", [True, False], ids=["ends", "outlasts"])
async def test_a_save_answered_in_the_stop_is_not_said_dropped(
    scene: Scene,
    start_bot: StartBot,
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    in_the_stop: bool,
) -> None:
    """Item 3: a `/term add` form's save still under way at the stop's time for answers is
    cancelled, then answered within the rest of the stop (left36, stopgap37): "Added …", or
    that it had not finished. The stop's WARNING "1 answer not sent by the stop's deadline is
    dropped" was logged all the same, before the cancel. Now the answers still under way are
    said at INFO when cancelled, and the WARNING counts only those that really were dropped:
    none here."""
    caplog.set_level(logging.INFO, logger="bot")
    told = await _stop_during_a_save(
        scene, start_bot, store, monkeypatch, released_in_the_stop=in_the_stop
    )
    if in_the_stop:
        assert [text.split(" in ")[0] for text in told] == ["Added **Zorblax**"], told
    else:
        assert told == [UNFINISHED_AT_STOP], told
    said = [r.getMessage() for r in caplog.records if r.getMessage().startswith("stopping: ")]
    assert (
        "stopping: 1 answer still under way at the stop's time for answers: cancelled (a save "
        "under way is waited for)"
    ) in said, said
    assert not [line for line in said if "dropped" in line], said


def test_a_token_too_short_to_be_real_garbles_no_line() -> None:
    """Item 4: DISCORD_TOKEN=t made the log redaction replace every "t" of every line ("s[redacted]
    opping"). A secret too short to be a bot token is now redacted only where it stands alone;
    a real token's length is redacted wherever it is, as before."""
    line = "stopping: the bot started at 12:00"
    assert redact(line, ["t"]) == line
    assert redact("logging in with t failed", ["t"]) == f"logging in with {REDACTED} failed"
    assert redact("token=x.y.z.", ["x.y.z"]) == f"token={REDACTED}."
    real = "MTE5ODI3NzIzNjAwMDAwMDAwMA.GhQx3k.Zt9d8W2uQmV1rYcK0pLs7eXoA4nJbHfG6iTyU"
    assert redact(f"Bot {real}x and %22{real}%22", [real]) == (
        f"Bot {REDACTED}x and %22{REDACTED}%22"
    )
