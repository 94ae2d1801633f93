"""product71 (PLAN.md, "product71"): the product leftovers of product70, review70, left70, fake70
and readme70. The program's ways in (the script, `python -m bot`, `python -m bot.cli`) and its
signals while it starts: the real program, in a process of its own, against the fake Discord."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.glossary.interchange import import_cap
from bot.heartbeat import STOPPED, check_heartbeat
from tests.fake_discord import FakeDiscord
from tests.resilience.botproc import ROOT, BotProcess

from .test_left36 import GUARD, _read_until, run_bot_by_hand, stopped

SCRIPT = str(Path(sys.executable).parent / "glossary-bot")  # the installed script, as run
WAYS_IN = {
    "script": [SCRIPT],
    "python -m bot": ["-m", "bot"],
    "python -m bot.cli": ["-m", "bot.cli"],
}
EXIT_WITHIN = 60.0  # a bound on a hang only

# The program started one of its ways in, sending itself SIGNAL as `bot.errors` begins to
# import: the first thing the command line imports, inside every way in, before any command's
# handling of its signals is in place. The moment comes from inside the import, not a delay.
# Run as BotProcess's prefix, it ignores the command BotProcess appends and runs `run`.
_SIGNALLED_AS_IT_STARTS = """
import os, runpy, signal, sys

class Signal:
    def find_spec(self, name, path=None, target=None):
        if name == "bot.errors":
            sys.meta_path.remove(self)
            print("product71: SIGNAL sent as the program starts", flush=True)
            os.kill(os.getpid(), signal.SIGNAL)
        return None

way, arguments = WAY, ARGUMENTS
sys.meta_path.insert(0, Signal())
if way[0] == "-m":
    sys.argv = [way[1], *arguments]
    runpy.run_module(way[1], run_name="__main__", alter_sys=True)
else:
    sys.argv = [way[0], *arguments]
    runpy.run_path(way[0], run_name="__main__")
"""


def _signalled(tmp_path: Path, way: str, name: str, arguments: list[str]) -> list[str]:
    """The command line of a Python that runs the program `way` with `arguments`, sending
    itself signal `name` as it starts."""
    wrapper = tmp_path / f"{name}_as_it_starts.py"
    text = _SIGNALLED_AS_IT_STARTS.replace("SIGNAL", name)
    text = text.replace("WAY", repr(WAYS_IN[way])).replace("ARGUMENTS", repr(arguments))
    wrapper.write_text(text, "utf-8")
    return [sys.executable, str(wrapper)]


def _environment(home: Path, **settings: str) -> dict[str, str]:
    """No developer's settings: only these, the path and a home of the test's own."""
    return {"PATH": os.environ["PATH"], "HOME": str(home), "PYTHONPATH": str(ROOT), **settings}


def _way_in(way: str) -> list[str]:
    """The command line that starts the program `way` (a key of WAYS_IN)."""
    return WAYS_IN[way] if way == "script" else [sys.executable, *WAYS_IN[way]]


def _run(command: list[str], home: Path, **output: Any) -> subprocess.CompletedProcess[str]:
    """`command` started as from an operator's shell in `home` (`_environment`), read as text,
    a hang bounded; `output`: where its output goes (subprocess.run's arguments)."""
    return subprocess.run(
        command,
        env=_environment(home),
        cwd=home,
        text=True,
        timeout=EXIT_WITHIN,
        check=False,
        **output,
    )


def _program(way: str, arguments: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return _run([*_way_in(way), *arguments], cwd, capture_output=True)


@pytest.mark.parametrize(
    "arguments",
    [["--help"], ["--version"], ["stats", "--help"], ["stats", "--bogus"], ["frobnicate"]],
    ids=["help", "version", "stats help", "usage error", "unknown command"],
)
def test_every_way_in_answers_as_the_script_does(tmp_path: Path, arguments: list[str]) -> None:
    """Leftover (product70): `python -m bot.cli` was a way in of its own (the tests' BotProcess,
    README's container examples), and `python -m bot` was none ("'bot' is a package and cannot
    be directly executed"). All three now run `bot.entry.main`: the same output and exit."""
    said = {way: _program(way, arguments, tmp_path) for way in WAYS_IN}
    script = said["script"]
    for way, done in said.items():
        assert (done.returncode, done.stdout, done.stderr) == (
            script.returncode,
            script.stdout,
            script.stderr,
        ), way
    assert "glossary-bot" in script.stdout + script.stderr


@pytest.mark.parametrize("way", list(WAYS_IN))
@pytest.mark.parametrize(
    ("name", "code"),
    [("SIGINT", 130), ("SIGTERM", -signal.SIGTERM), ("SIGHUP", -signal.SIGHUP)],
)
def test_a_signal_as_a_command_starts_ends_it_as_a_moment_later(
    tmp_path: Path, way: str, name: str, code: int
) -> None:
    """A command other than `run` sent a signal as it starts ends as it would a moment later:
    Ctrl-C with 130 and nothing printed, SIGTERM and SIGHUP by the signal (their default);
    nothing written. `python -m bot.cli` printed Python's KeyboardInterrupt traceback (it was
    not held there), `python -m bot` did not start."""
    done = _run(
        _signalled(tmp_path, way, name, ["stats", "--db", "none.db"]), tmp_path, capture_output=True
    )
    said = done.stdout + done.stderr
    assert said == f"product71: {name} sent as the program starts\n", said
    assert done.returncode == code, (done.returncode, said)
    assert not (tmp_path / "none.db").exists()


def _an_earlier_runs_stop(heartbeat: Path) -> str:
    heartbeat.write_text(f"{STOPPED}1700000000\n", "utf-8")
    return heartbeat.read_text("utf-8")


@pytest.mark.parametrize("way", list(WAYS_IN))
async def test_sigterm_as_run_starts_stops_it_as_a_later_sigterm_does(
    tmp_path: Path, way: str
) -> None:
    """ops69/product70's leftover: SIGTERM in `run`'s first moments (before the command line
    had set its handlers) killed the process by the signal (143), silently; a moment later it
    stops with exit 0 (README: SIGTERM stops it gracefully, exit 0, while it starts too). Now
    exit 0, nothing but the test's own line printed, Discord never reached, nothing written
    (no database made, the heartbeat file as the earlier run left it)."""
    heartbeat = tmp_path / "heartbeat"
    earlier = _an_earlier_runs_stop(heartbeat)
    async with FakeDiscord(shard_count=1) as fake:
        bot = BotProcess(
            fake,
            tmp_path / "bot.db",
            cwd=tmp_path,
            prefix=_signalled(tmp_path, way, "SIGTERM", ["run"]),
            HEARTBEAT_PATH=str(heartbeat),
        )
        await bot.start(wait_ready=False)
        code = await bot.exited(within=EXIT_WITHIN)
    assert bot.lines == ["product71: SIGTERM sent as the program starts"], bot.output
    assert code == 0, bot.output
    assert fake.gateway.identify_count == 0
    assert not (tmp_path / "bot.db").exists()
    assert heartbeat.read_text("utf-8") == earlier


@pytest.mark.parametrize("way", list(WAYS_IN))
async def test_sighup_as_run_starts_is_a_reload_once_it_runs(tmp_path: Path, way: str) -> None:
    """ops69/product70's leftover: SIGHUP in `run`'s first moments killed the process by the
    signal's default action (exit 129), silently (`kill -HUP` just after a restart). Now the
    reload is kept: the bot connects, reloads once, and stops with exit 0 on SIGTERM."""
    async with FakeDiscord(shard_count=1) as fake:
        bot = BotProcess(
            fake,
            tmp_path / "bot.db",
            cwd=tmp_path,
            prefix=_signalled(tmp_path, way, "SIGHUP", ["run"]),
            start_timeout=EXIT_WITHIN,
        )
        async with bot:  # connected: not ended by the signal
            await bot.wait_for_output("SIGHUP sent as the program starts")
            await bot.wait_for_output("glossary reloaded: ", within=120)  # a hang's bound
            code = await bot.stop()
    assert code == 0, bot.output
    assert sum("glossary reloaded: " in line for line in bot.lines) == 1, bot.output
    assert "Traceback" not in bot.output, bot.output


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
async def test_a_signal_after_runs_first_line_before_ready(tmp_path: Path, name: str) -> None:
    """Once `run`'s first line is out, before Discord's READY: SIGTERM stops it with exit 0
    and says so in the heartbeat file; SIGHUP is a reload done once it runs (held). Found here:
    a SIGTERM just after the line (the test woken by it, the bot not yet in its loop) raised
    SystemExit out of the loop's start, and `health` read the earlier run's stop line (or "no
    heartbeat yet (starting, …)"). Now the stop is kept from before the line to the loop's own
    handlers, which stop it as any SIGTERM."""
    heartbeat = tmp_path / "heartbeat"
    _an_earlier_runs_stop(heartbeat)
    async with FakeDiscord(shard_count=1) as fake:
        bot = BotProcess(fake, tmp_path / "bot.db", cwd=tmp_path, HEARTBEAT_PATH=str(heartbeat))
        await bot.start(wait_ready=False)
        await bot.wait_for_output("starting as ", within=EXIT_WITHIN)
        bot.send_signal(getattr(signal, name))
        if name == "SIGHUP":
            await bot.wait_for_output("glossary reloaded: ", within=120)  # a hang's bound
            await fake.waiter.wait_for(
                lambda: fake.gateway.ready_sent, "the bot to connect", within=EXIT_WITHIN
            )
            code = await bot.stop()
        else:
            code = await bot.exited(within=EXIT_WITHIN)
    assert code == 0, bot.output
    assert "Traceback" not in bot.output, bot.output
    healthy, said = check_heartbeat(heartbeat)
    assert not healthy
    assert said.startswith("stopped: the bot stopped cleanly"), said
    assert heartbeat.read_text("utf-8").removeprefix(STOPPED).split()[0] != "1700000000", bot.output


# Two terms, each a few tables, keys and lines: what a moderator's file holds around its notes.
TWO_TERMS = """[[entries]]
title = "Zorb Engine"
category = "Fundamentals"
definition = "A thing that zorbs."

[[entries]]
title = "Plimwort"
category = "Fundamentals"
definition = "Plants of the wumpel kind."
"""
COMMENT = "# a note kept beside our terms, as the team writes them\n"


def _imported(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> tuple[int, str]:
    """`glossary-bot terms import` of `text` (a .toml) into server 5 of a new SQLite file."""
    file = tmp_path / "ours.toml"
    file.write_text(text, "utf-8")
    code = main(["terms", "import", str(file), "--guild", "5", "--db", str(tmp_path / "bot.db")])
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.mark.parametrize("past_the_size_cap", [False, True], ids=["within", "past"])
def test_comment_lines_are_not_counted_as_structure(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    past_the_size_cap: bool,
) -> None:
    """product70's leftover: a file of two terms and many comment lines (and blank ones) was
    refused as "… tables, keys and lines: more than a glossary of 20 terms needs" (each comment
    line's end counted as the parser's work; it costs the parser next to nothing). Comment and
    blank lines are not counted now: within the file-size cap (4 MiB at 20 terms) the two terms
    are imported; one line past it, the file is refused by its size, said as such."""
    monkeypatch.chdir(tmp_path)  # no developer's .env
    monkeypatch.delenv("MAX_SERVER_TERM_BYTES", raising=False)
    monkeypatch.setenv("MAX_SERVER_TERMS", "20")
    cap = import_cap(20)
    notes = (cap - len(TWO_TERMS)) // (len(COMMENT) + 1)  # a comment and a blank line each
    text = TWO_TERMS + ("\n" + COMMENT) * notes
    if past_the_size_cap:
        text += COMMENT
    assert (len(text.encode()) > cap) == past_the_size_cap
    code, said = _imported(tmp_path, capsys, text)
    assert "tables, keys and lines" not in said, said
    if past_the_size_cap:
        assert code == 1, said
        size = len(text.encode())
        assert f"ours.toml is {size:,} bytes; an import is at most {cap:,} bytes\n" in said, said
    else:
        assert code == 0, said
        assert said.startswith("Imported: 2 added, 0 changed, 0 removed."), said


async def test_the_fake_by_hand_waits_for_a_confirmed_removal_to_be_written(
    tmp_path: Path,
) -> None:
    """fake70's leftover: `!click remove` printed the click's answer (the buttons gone) and
    took the next line at once, while the bot was still removing the term: a `/define` typed
    right after could still find it. The console now waits for the follow-up the bot sends once
    the removal is written ("Removed …", printed with the click's answer), an event, not a
    delay; the `/define` typed in the same breath then finds no such term."""
    (tmp_path / "zorb.toml").write_text(TWO_TERMS, "utf-8")
    fake = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.fake_discord",
        cwd=ROOT,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT)},
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert fake.stdin is not None
    assert fake.stdout is not None
    stdin, stdout = fake.stdin, fake.stdout

    async def typed(lines: str, until: str) -> str:
        stdin.write(lines.encode())
        await stdin.drain()
        return await _read_until(stdout, until)

    bot = None
    try:
        settings = dict(re.findall(r"(DISCORD_\w+)=(\S+)", await _read_until(stdout, "waiting")))
        bot = await run_bot_by_hand(tmp_path, settings)
        await _read_until(stdout, "connected.")
        said = await typed(f"mo: /term import file:{tmp_path / 'zorb.toml'}\n", "(only mo sees")
        assert "Imported: 2 added, 0 changed, 0 removed." in said, said
        await typed("mo: /term remove term:Zorb Engine\n", "buttons: [1] Remove")
        # Typed back to back, as fast as a paste: the removal, a lookup, a line to end on.
        said = await typed("mo: !click remove\n/define zorb engine\n!say done\n", "not to the bot)")
        removed = said.index("Removed “Zorb Engine”.")
        looked_up = said.index("(only mo sees this)", removed)
        assert "[Zorb Engine]" not in said[looked_up:], said
        stdin.close()  # end of input: the fake stops
        async with asyncio.timeout(GUARD):
            assert await fake.wait() == 0
    finally:
        await stopped(fake, bot)
