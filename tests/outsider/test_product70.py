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
