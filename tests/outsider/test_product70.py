"""product70 (PLAN.md, "product70"): ops69's and outsider69's leftovers that need no bot, each
failing on main 75238385 first unless said. Ctrl-C in `glossary-bot`'s first moments (the real
program, in a process of its own)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from tests.resilience.botproc import ROOT

PROGRAM = Path(sys.executable).parent / "glossary-bot"  # the installed script, as run
EXIT_WITHIN = 60.0  # a bound on a hang only

# The program run as its script is, sent SIGINT by itself as `bot.cli` begins to import: the
# earliest moment of the bot's own code a test can reach without a sleep (before it, the
# interpreter starts and imports the script's entry module). The signal comes from inside the
# import, not from a delay.
_INTERRUPTED_AS_IT_STARTS = """
import os, runpy, signal, sys

class Interrupt:
    def find_spec(self, name, path=None, target=None):
        if name == "bot.cli":
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, Interrupt())
sys.argv[0] = PROGRAM
runpy.run_path(PROGRAM, run_name="__main__")
"""


def _environment(home: Path, **settings: str) -> dict[str, str]:
    """No developer's settings: only these, the path and a home of the test's own."""
    return {"PATH": os.environ["PATH"], "HOME": str(home), "PYTHONPATH": str(ROOT), **settings}


@pytest.mark.parametrize(
    ("args", "code"),
    [(["run"], 0), ([], 0), (["stats", "--db", "none.db"], 130)],
    ids=["run", "no command", "stats"],
)
def test_ctrl_c_as_the_program_starts_is_the_commands_stop_not_a_traceback(
    tmp_path: Path, args: list[str], code: int
) -> None:
    """ops69's "Left": Ctrl-C within about 50 ms of `glossary-bot run` printed Python's own
    KeyboardInterrupt traceback (raised while the command line was imported) and ended by the
    signal, where a moment later `run` stops with exit 0 and nothing printed (README: "SIGTERM
    and Ctrl-C stop it gracefully (exit 0)"; review47: while it starts too). Now the program
    holds a Ctrl-C until its command's own handling is in place, which then answers it: `run`
    (and plain `glossary-bot`, which runs the bot when a token is set) exit 0, any other
    command 130 (its KeyboardInterrupt), silently, as a moment later."""
    wrapper = tmp_path / "interrupted.py"
    wrapper.write_text(
        _INTERRUPTED_AS_IT_STARTS.replace("PROGRAM", repr(str(PROGRAM))), encoding="utf-8"
    )
    done = subprocess.run(
        [sys.executable, str(wrapper), *args],
        env=_environment(tmp_path, DISCORD_TOKEN="x.y.z", GLOSSARY_PATHS=""),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=EXIT_WITHIN,
        check=False,
    )
    said = done.stdout + done.stderr
    assert "Traceback" not in said, said
    assert "KeyboardInterrupt" not in said, said
    assert said == "", said
    assert done.returncode == code, (done.returncode, said)
    assert not (tmp_path / "none.db").exists()


def test_ctrl_c_after_the_first_line_of_run_stops_it_with_exit_0(tmp_path: Path) -> None:
    """Held (on main too): the real `glossary-bot run`, Ctrl-C sent once its first line is out
    (it waits for a Discord that takes the connection and never answers): exit 0, no
    traceback."""
    with socket.create_server(("127.0.0.1", 0)) as silent:  # listens, never answers
        port = silent.getsockname()[1]
        settings = {
            "DISCORD_TOKEN": "x.y.z",
            "DISCORD_API_BASE_URL": f"http://127.0.0.1:{port}/api/v10",
            "DATABASE_PATH": str(tmp_path / "bot.db"),
            "GLOSSARY_PATHS": "",
            "LOG_LEVEL": "INFO",
        }
        with subprocess.Popen(
            [str(PROGRAM), "run"],
            env=_environment(tmp_path, **settings),
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        ) as bot:
            assert bot.stdout is not None
            first = bot.stdout.readline()  # blocks until the line (or the end: then empty)
            bot.send_signal(signal.SIGINT)
            rest, _ = bot.communicate(timeout=EXIT_WITHIN)
            code = bot.returncode
    assert "starting as pid" in first, first + rest
    assert "Traceback" not in first + rest, first + rest
    assert code == 0, first + rest


def _imported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, text: str
) -> tuple[int, str]:
    """`glossary-bot terms import` of `text` as the file `name` into server 5 of a new SQLite
    file: (exit status, what it printed)."""
    file = tmp_path / name
    file.write_text(text, "utf-8")
    code = main(["terms", "import", str(file), "--guild", "5", "--db", str(tmp_path / "bot.db")])
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.mark.parametrize(("cap", "lines"), [("20", 1_200), (None, 100_001)], ids=["20", "2000"])
def test_a_file_of_comments_only_is_said_to_hold_no_terms_whatever_the_cap(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    cap: str | None,
    lines: int,
) -> None:
    """outsider69's "Left": a TOML file of comment lines only, more of them than 50 a term of
    the server's cap, was refused as "1,200 tables, keys and lines: more than a glossary of 20
    terms needs; is this a glossary file?" (a comment's line end was counted as the parser's
    work). It adds no term: it is said to hold none, as an empty file is, at a cap of 20 and at
    the default 2,000 (100,001 lines, 0.4 MB)."""
    monkeypatch.chdir(tmp_path)  # no developer's .env
    for name in ("MAX_SERVER_TERMS", "MAX_SERVER_TERM_BYTES"):
        monkeypatch.delenv(name, raising=False)
    if cap is not None:
        monkeypatch.setenv("MAX_SERVER_TERMS", cap)
    text = "# our terms, to come\n" + "#\n" * (lines - 2) + "   # indented, the last\n"
    code, said = _imported(tmp_path, capsys, "ours.toml", text)
    assert code == 1, said
    assert "no entries in the file" in said, said
    assert "tables, keys and lines" not in said, said


# A moderator's Markdown file (no categories: each term is refused for want of one, given
# none for the file): its title (a warning), Zorblax at 3 and again at 11, a "See" naming
# nothing at 15, a heading with no text at 19. The reader finds 19 (and 1), the checks the rest.
MARKDOWN = """Our terms¶

Zorblax¶

The team's nightly job.

Plimwort¶

Plants of the wumpel kind.

Zorblax¶

Again the job, a second time.

Wumpel¶

A thing. See Nosuchthing.

Glorp¶

"""


def lines_of(said: str, marker: str) -> list[int]:
    """The line numbers the problems of `said` name, in its order (each after `marker`)."""
    return [
        int(line.split(marker, 1)[1].split(",")[0].split(" ")[0])
        for line in said.splitlines()
        if marker in line
    ]


def test_an_imports_problems_are_listed_by_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """outsider69's "Left": an import listed its file's readers' problems first, then the term
    checks' (lines 19, then 3, 7, 11, 11, 15). `terms import` lists them top-down now, as `/term import`
    (test_product70_discord) and `check` do."""
    monkeypatch.chdir(tmp_path)
    code, said = _imported(tmp_path, capsys, "ours.md", MARKDOWN)
    assert code == 1, said
    assert lines_of(said, "• line ") == [3, 7, 11, 11, 15, 15, 19], said


def test_checks_problems_are_listed_by_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`glossary-bot check` of the same file as a self-hoster's glossary listed 19, 11, then
    3, 7, 15 (the reader's, the merge's, the checks'): now 3, 7, 11, 15, 19, errors before
    warnings as before."""
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "mine.md").write_text(MARKDOWN, "utf-8")
    assert main(["check", str(folder)]) == 1
    said = capsys.readouterr().out
    assert lines_of(said, "mine.md:") == [3, 7, 11, 15, 19, 15], said


def test_a_file_of_spaces_is_read_at_once_not_in_hours(tmp_path: Path) -> None:
    """Found beside the comments' case: the guard that counts a TOML file's dotted keys before
    parsing searched a line of spaces in quadratic time (two runs of spaces side by side in
    its pattern: 20,000 spaces took 6 s), so a 1 MB `.toml` of spaces held `terms import` (and
    `/term import`'s thread) for hours. Now it is read as any file without entries. Its time is
    bounded here only as a hang (EXIT_WITHIN)."""
    file = tmp_path / "spaces.toml"
    file.write_text(" " * 1_000_000, "utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "terms", "import", str(file), "--guild", "5"],
        env=_environment(tmp_path, DATABASE_PATH=str(tmp_path / "bot.db")),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=EXIT_WITHIN,
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "no entries in the file" in done.stderr, done.stdout + done.stderr
