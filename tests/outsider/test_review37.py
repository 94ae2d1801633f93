"""Review of this session's changes (tests/outsider/PLAN.md, review37): links in what members
write, the reply hint, the members' DM cap, `/stats`' lists, restore's numbering, a database
setting that names no file.

The search index on the bundled glossary, the real bot on the fake Discord, and `glossary-bot`
on real SQLite files."""

from __future__ import annotations

import os
import socket
import sqlite3
from pathlib import Path

import pytest

from bot.cli import main
from bot.discord_app.replies import echo
from bot.glossary.links import without_links
from tests.discord_app.helpers import define
from tests.resilience.botproc import CLI_ENV, BotProcess, glossary_bot_run_here
from tests.resilience.conftest import without_permission_override

from .conftest import Scene
from .test_left24 import _cli
from .test_review36 import _bundled, done_in_a_process
from .test_round20 import _database


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("see <https://a.example/>https://b.example/rag", []),
        ("see <https://a.example/>www.b.example/rag", []),
        ("<https://a.example/>https://b.example/kv-cache and RAG", ["rag"]),
        ("<https://a.example/>RAG.https://b.example/rag", ["rag"]),
    ],
)
def test_a_link_right_after_a_bracketed_link_is_blanked_too(text: str, terms: list[str]) -> None:
    """R2: a link in Discord's angle brackets ends at its ">" (review36 V4 kept what follows as
    words), but the pattern's match ran on to the next space, so a second link written right
    after the ">" was never matched: its address was read for terms ("rag" in its path listed
    by Explain terms as RAG)."""
    named = [m.entry_id for m in _bundled().find_named_terms(text)]
    assert named == terms, named
    assert "example" not in without_links(text)


_CHAINED = ["<https://x>" * 400_000, "<www.x>" * 600_000, "https://x>" * 400_000, "<a>" * 1_300_000]


def test_links_after_brackets_are_read_once() -> None:
    """R3 (R2's fix): reading on after each ">" must not scan the rest of the run again for
    each link, as a match running on to the next space would (a first draft of R2's fix took
    0.15 s on 44,000 characters of "<https://x>", 3.2 s on 220,000). 4 million characters of
    each kind in one process of their own (a process each spent 2 s importing the bot), which a
    linear reading does in about a second a kind and the square one in some twenty minutes:
    STUCK bounds the hang only."""
    code = (
        "from tests.outsider.test_review37 import _CHAINED\n"
        "from bot.glossary.links import without_links\n"
        "for n, text in enumerate(_CHAINED):\n"
        "    print(n, flush=True)  # the kind a hang is in\n"
        "    assert len(without_links(text)) == len(text), n\n"
        "print('done')"
    )
    done_in_a_process(code, kinds=len(_CHAINED))


def _not_files(tmp_path: Path) -> list[tuple[Path, str]]:
    """A fifo, a socket and a character device where the database should be."""
    fifo, sock = tmp_path / "db.fifo", tmp_path / "db.sock"
    os.mkfifo(fifo)
    listening = socket.socket(socket.AF_UNIX)
    listening.bind(str(sock))
    listening.close()  # the socket file stays
    return [
        (fifo, "a fifo (named pipe)"),
        (sock, "a socket"),
        (Path("/dev/null"), "a character device"),
    ]


def test_the_commands_say_what_a_database_path_that_is_no_file_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """R9: `--db` or DATABASE_PATH naming a fifo, a socket or a device: the commands said
    "there is no database at /dev/null", which is there; round 27 said so of a folder. Now
    what it is, and that it is no database file."""
    monkeypatch.chdir(tmp_path)
    for path, what in _not_files(tmp_path):
        for argv, named in ((["stats", "--db", str(path)], "--db"), (["aliases", "export"], None)):
            monkeypatch.setenv("DATABASE_PATH", str(path))
            capsys.readouterr()
            status = main(argv)
            said = capsys.readouterr().err
            assert status == 1, (argv, said)
            assert said == (
                f"glossary-bot: error: {named or 'DATABASE_PATH'} {path} is {what}, not a "
                "database file\n"
            ), (argv, said)


def _names(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


async def test_run_on_a_fifo_says_so_and_makes_nothing_beside_it(
    scene: Scene, tmp_path: Path
) -> None:
    """R9, `run`: a fifo as DATABASE_PATH logged "the database could not be written (disk I/O
    error)" (a device "cannot upgrade … to schema version 1", and left a `-journal` beside
    it: `/dev/null-journal` in /dev for a bot run as root). /define stayed up, as designed.
    Now the line says what the path is, and SQLite is not let at it."""
    fifo = tmp_path / "db.fifo"
    os.mkfifo(fifo)
    async with BotProcess(scene.fake, fifo, cwd=tmp_path) as bot:
        line = await bot.wait_for_output("cannot open the database")
        assert (
            f"{fifo}: the database file cannot be opened: it is a fifo (named pipe), not a "
            "database file; answering without counts and aliases" in line
        ), line
        _, card = await define(scene.fake, scene.alice, "kv cache", scene.channel)
        assert card["embeds"][0]["title"] == "KV Cache"
    assert _names(tmp_path) == ["db.fifo"]


def _damaged_over_lines(tmp_path: Path) -> bytes:
    """A bot's database with one page damaged so that SQLite's quick_check reports it on more
    than one line ("*** in database main ***" and where), found by trying each page."""
    whole = _database(tmp_path / "whole.db", lookups=30).read_bytes()
    size = int.from_bytes(whole[16:18], "big")
    trial = tmp_path / "trial.db"
    for page in range(2, len(whole) // size + 1):
        damaged = bytearray(whole)
        damaged[page * size - 20 : page * size - 10] = b"\xff" * 10
        trial.write_bytes(damaged)
        with sqlite3.connect(trial) as conn:
            (said,) = conn.execute("PRAGMA quick_check").fetchone()
        conn.close()
        if "\n" in said:
            trial.unlink()
            return bytes(damaged)
    raise AssertionError("no page's damage is reported on two lines")


def test_a_damaged_database_is_said_in_one_line_of_itself(tmp_path: Path) -> None:
    """R10: a snapshot whose copy fails SQLite's integrity check: `stats` said "… read through
    a copy in TMPDIR (/tmp), which failed: the backup failed its integrity check: *** in
    database main ***", then "On tree page 8 cell 0: …" on a line of its own: "the backup" of
    a command that makes none (review36 V7 reworded the other failures), and two lines. The
    copy is page for page, so the damage is the database's: now it is named, in one line, by
    `stats` of a snapshot, `backup` and `restore` alike."""
    damaged = _damaged_over_lines(tmp_path)
    folder = tmp_path / "snap"
    folder.mkdir()
    (folder / "g.db").write_bytes(damaged)
    (tmp_path / "live.db").write_bytes(damaged)
    _database(tmp_path / "new.db", lookups=1)
    folder.chmod(0o555)
    try:
        read = _cli(tmp_path, "stats", "--db", "snap/g.db", prefix=without_permission_override())
    finally:
        folder.chmod(0o755)
    # These two in the test's process: the line is tested (`stats` above runs in a process of
    # its own, under setpriv, for the folder's modes to hold for root too).
    copied = glossary_bot_run_here(CLI_ENV, tmp_path, "backup", "--db", "live.db", "copy.db")
    restored = glossary_bot_run_here(CLI_ENV, tmp_path, "restore", "snap/g.db", "--db", "new.db")
    for done in (read, copied, restored):
        line = done.stderr.strip()
        assert done.returncode == 1, done
        assert "\n" not in line, line
        assert "fails SQLite's integrity check: *** in database main *** " in line, line
    assert "backup" not in read.stderr, read.stderr
    assert "which failed: snap/g.db fails SQLite's" in read.stderr, read.stderr
    assert copied.stderr.startswith("glossary-bot: error: live.db fails SQLite's"), copied.stderr
    assert not (tmp_path / "copy.db").exists()


@pytest.mark.parametrize(
    "text",
    [
        "https://a/https://evil%2Eexample/login",  # a dot the browser decodes in the host
        "<https://a>https://2130706433/x",  # 127.0.0.1 written as one number: no dot
        "see https://a.b/c?next=http://localhost:8080/admin",
        "svn+ssh://a/b:/c",
    ],
)
def test_an_echo_leaves_no_second_scheme_of_a_link_clickable(text: str) -> None:
    """Found from R1's inputs while writing up: `quote` defanged a link's scheme and the dots
    after it, but a second scheme in the same run ("https://a/https://evil%2Eexample", after
    the ">" of a bracketed link, in a query string) was echoed as typed, and Discord's client
    may link an "http(s)://" where it begins; a host with no dot ("2130706433", "localhost",
    a dot written "%2E") kept nothing broken. Now every ":/" in the run is defanged too."""
    said = echo(text)
    assert ":/" not in said.replace("[:]/", ""), said
