"""Every command, given bad values, answers in one line: no traceback, exit 1 or 2.

Run as an operator runs it: in a folder with no `.env` and outside the source checkout, with none
of the developer's settings. The first case of each command, every `run` case and the bare
command run the installed `glossary-bot` in a process of its own (its exit status, its stdout and
stderr; `run` sets the process's signal handlers and logging); the others run `main` in this
process, as that process would (a process each took 1-2 s, 67 of them 4-5 minutes under load),
held to what the process would print besides: no log record or warning (Python writes those on a
bare process's stderr, an extra line), no exception past `main` (a traceback there).
"""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import pytest

GLOSSARY_BOT = Path(sys.executable).with_name("glossary-bot")
SETTINGS = ("DISCORD_", "DATABASE_", "GLOSSARY_", "COOLDOWN_", "LOG_LEVEL", "HEARTBEAT_", "DEV_")


@dataclass(frozen=True)
class Case:
    argv: list[str]
    says: str  # a fragment the one line must hold
    env: dict[str, str] = field(default_factory=dict)
    never: str = "\0"  # a fragment that must appear nowhere (a secret)
    stdout_lines: int = 0  # `check` reports on stdout: its problems, then their summary


# {folder}: a folder that exists; {db}: an existing database; {fifo}: a named pipe. A token is set wherever `run`
# would otherwise stop on its absence first.
TOKEN = {"DISCORD_TOKEN": "not-a-real-token"}
CASES: dict[str, Case] = {
    "unknown command": Case(["frobnicate"], "invalid choice"),
    "unknown option": Case(["--nope"], "unrecognized arguments: --nope"),
    "check: unknown option": Case(["check", "--bogus"], "glossary-bot check: error"),
    "check: missing path": Case(["check", "nowhere.toml"], "1 error(s)", stdout_lines=2),
    "check -q: missing path": Case(
        ["check", "-q", "nowhere.toml"], "nowhere.toml: error", never="error(s)", stdout_lines=1
    ),
    "export: missing data": Case(["export", "--data", "nowhere"], "nowhere: error: no such"),
    "define: misspelt option": Case(["define", "--jsn", "kv"], "usage: glossary-bot define"),
    "define: no term": Case(["define"], "glossary-bot define: error"),
    "define: spaces only": Case(["define", "  "], "Nothing to look up", stdout_lines=1),
    "define: missing data": Case(["define", "--data", "nowhere", "kv"], "no such file"),
    "define: empty folder": Case(["define", "--data", "{folder}", "kv"], "no glossary entries"),
    "search: missing data": Case(["search", "--data", "nowhere"], "no such file"),
    "relevance outside the checkout": Case(["relevance"], "--set PATH"),
    "relevance: missing set": Case(
        ["relevance", "--set", "nowhere.tsv"], "nowhere.tsv: No such file", never="Errno"
    ),
    "relevance: a folder as set": Case(
        ["relevance", "--set", "{folder}"], "relevance set", never="Errno"
    ),
    "stats --limit 0": Case(["stats", "--db", "{db}", "--limit", "0"], "--limit"),
    "stats --limit -1": Case(["stats", "--db", "{db}", "--limit", "-1"], "--limit"),
    "stats --limit huge": Case(["stats", "--db", "{db}", "--limit", "1" + "0" * 20], "--limit"),
    "stats --guild huge": Case(["stats", "--db", "{db}", "--guild", "9" * 30], "--guild"),
    "stats --period year": Case(["stats", "--db", "{db}", "--period", "year"], "--period"),
    "stats: no database": Case(["stats", "--db", "nowhere.db"], "no database at nowhere.db"),
    "stats: a folder as database": Case(
        ["stats", "--db", "{folder}"], "is a folder, not a database file"
    ),
    "stats: bad setting": Case(["stats"], "LOG_LEVEL", {"LOG_LEVEL": "verbose"}),
    # The README: a folder named as the database "is said to be one, naming a file in it, by
    # every command" (readme37 found these three saying there was no database, or none there).
    "check --db: a folder": Case(
        ["check", "-q", "--db", "{folder}"], "is a folder, not a database file", stdout_lines=1
    ),
    "restore: a folder as database": Case(
        ["restore", "{db}", "--db", "{folder}"], "is a folder, not a database file"
    ),
    "migrate-db: a folder as source": Case(
        ["migrate-db", "--from", "{folder}", "--to", "{cwd}/copy.db"],
        "is a folder, not a database file",
    ),
    # And a fifo, as review37 made `stats` and `run` say (these three said "no database there").
    "check --db: a fifo": Case(
        ["check", "-q", "--db", "{fifo}"],
        "is a fifo (named pipe), not a database file",
        stdout_lines=1,
    ),
    "restore: a fifo as database": Case(
        ["restore", "{db}", "--db", "{fifo}"], "is a fifo (named pipe), not a database file"
    ),
    "migrate-db: a fifo as source": Case(
        ["migrate-db", "--from", "{fifo}", "--to", "{cwd}/copy.db"],
        "is a fifo (named pipe), not a database file",
    ),
    "aliases: no action": Case(["aliases"], "glossary-bot aliases: error"),
    "aliases import: missing file": Case(
        ["aliases", "import", "nowhere.json", "--db", "{db}"], "cannot read nowhere.json"
    ),
    "aliases import: not JSON": Case(["aliases", "import", "{db}", "--db", "{db}"], "cannot read"),
    "aliases export: no database": Case(["aliases", "export", "--db", "nowhere.db"], "no database"),
    "backup into a folder": Case(["backup", "{folder}", "--db", "{db}"], "that is a folder"),
    "backup into a missing folder": Case(
        ["backup", "/nonexistent/dir/x.db", "--db", "{db}"], "/nonexistent/dir does not exist"
    ),
    "backup: no path": Case(["backup"], "glossary-bot backup: error"),
    # Writing there fails though the folder exists (even root cannot create files in /proc).
    "backup where no file can be made": Case(
        ["backup", "/proc/x.db", "--db", "{db}"], "cannot write the backup to /proc/x.db"
    ),
    # A named pipe (like /dev/null) is not a file to replace with a copy.
    "backup onto a pipe": Case(["backup", "{fifo}", "--db", "{db}"], "not a regular file"),
    "migrate-db: no arguments": Case(["migrate-db"], "glossary-bot migrate-db: error"),
    "migrate-db: no source": Case(
        ["migrate-db", "--from", "nowhere.db", "--to", "postgresql://u:hunter2@127.0.0.1:9/x"],
        "there is none at nowhere.db",
        never="hunter2",
    ),
    "migrate-db: target unreachable": Case(
        ["migrate-db", "--from", "{db}", "--to", "postgresql://u:hunter2@127.0.0.1:9/x"],
        "cannot reach the database",
        never="hunter2",
    ),
    "terms: no action": Case(["terms"], "glossary-bot terms: error"),
    "terms export: negative guild": Case(
        ["terms", "export", "--guild", "-1", "--db", "{db}"], "--guild"
    ),
    "terms export into a folder": Case(
        ["terms", "export", "--guild", "1", "--output", "{folder}", "--db", "{db}"],
        "cannot write",
    ),
    "terms import: missing file": Case(
        ["terms", "import", "nowhere.toml", "--guild", "1", "--db", "{db}"], "nowhere.toml"
    ),
    "terms import: a folder": Case(
        ["terms", "import", "{folder}", "--guild", "1", "--db", "{db}"], "cannot read"
    ),
    "terms log --limit 0": Case(
        ["terms", "log", "--guild", "1", "--limit", "0", "--db", "{db}"], "--limit"
    ),
    "health: no heartbeat path": Case(["health"], "HEARTBEAT_PATH is not set"),
    "health: bad max-age": Case(["health", "--max-age", "-1"], "--max-age"),
    "health: stale heartbeat": Case(
        ["health"], "heartbeat", {"HEARTBEAT_PATH": "nowhere/heartbeat"}
    ),
    "run: no token": Case(["run"], "DISCORD_TOKEN is not set"),
    "run: unknown option": Case(["run", "--now"], "glossary-bot run: error"),
    "run: missing glossary": Case(["run"], "no such file", {**TOKEN, "GLOSSARY_PATHS": "nowhere"}),
    "run: Discord unreachable": Case(
        ["run"],
        "cannot reach Discord",
        {**TOKEN, "DISCORD_API_BASE_URL": "http://127.0.0.1:9/api/v10", "LOG_LEVEL": "WARNING"},
    ),
    "bare command, bad setting": Case([], "COOLDOWN_USES", {"COOLDOWN_USES": "many"}),
}
BAD_SETTINGS = {
    "LOG_LEVEL": ("verbose", "one of DEBUG, INFO, WARNING, ERROR, CRITICAL"),
    "DISCORD_API_BASE_URL": ("https://user:hunter2@proxy.example/api", "without user:password@"),
    "DISCORD_GATEWAY_URL": ("wss://user:hunter2@proxy.example/", "without user:password@"),
    "DEV_GUILD_ID": ("my-server", "a server id"),
    "COOLDOWN_USES": ("0", "at least 1"),
    "COOLDOWN_SECONDS": ("nan", "above 0"),
}
for name, (value, accepts) in BAD_SETTINGS.items():
    CASES[f"run: {name}={value}"] = Case(
        ["run"], f"{name}", {**TOKEN, name: value}, never="hunter2"
    )
    CASES[f"run: {name} accepts"] = Case(["run"], accepts, {**TOKEN, name: value})


@pytest.fixture(scope="module")
def places(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    from bot.storage import Store

    root = tmp_path_factory.mktemp("outside")
    (root / "folder").mkdir()
    os.mkfifo(root / "fifo")
    db = root / "bot.db"

    async def create() -> None:
        await (await Store.open(db, flush_interval=None)).close()

    asyncio.run(create())
    return {
        "folder": str(root / "folder"),
        "db": str(db),
        "fifo": str(root / "fifo"),
        "cwd": str(root),
    }


# Run by the installed `glossary-bot`: `run` and the bare command (they set the process's signal
# handlers and logging), and the first case of each other command (the commands' line as a
# real process prints it; the rest of each command's cases run `main` here).
IN_A_PROCESS = {
    name
    for name, case in CASES.items()
    if not case.argv
    or case.argv[0] == "run"
    or name == next(n for n, c in CASES.items() if c.argv[:1] == case.argv[:1])
}
# Warnings Python shows a bare process on its stderr (the rest it hides by default).
HIDDEN_WARNINGS = (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning)


@dataclass(frozen=True)
class Outcome:
    status: int | str | None
    stdout: str
    stderr: str


# A `run` of one bad setting is two cases (the setting named, what it accepts): one process.
_RAN: dict[str, Outcome] = {}


def in_a_process(case: Case, places: dict[str, str]) -> Outcome:
    key = repr((case.argv, sorted(case.env.items()), places))
    if key not in _RAN:
        _RAN[key] = _in_a_process(case, places)
    return _RAN[key]


def _in_a_process(case: Case, places: dict[str, str]) -> Outcome:
    env = {k: v for k, v in os.environ.items() if not k.startswith(SETTINGS)}
    env.update(case.env)
    done = subprocess.run(
        [str(GLOSSARY_BOT), *(arg.format(**places) for arg in case.argv)],
        cwd=places["cwd"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return Outcome(done.returncode, done.stdout, done.stderr)


def in_this_process(
    case: Case,
    places: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> Outcome:
    from bot.cli import main

    monkeypatch.chdir(places["cwd"])
    for name in os.environ:
        if name.startswith(SETTINGS):
            monkeypatch.delenv(name)
    for name, value in case.env.items():
        monkeypatch.setenv(name, value)
    caplog.set_level(logging.WARNING)  # Python's last resort writes these on a bare stderr
    capsys.readouterr()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            status: int | str | None = main([arg.format(**places) for arg in case.argv])
        except SystemExit as exc:  # argparse's usage errors
            status = exc.code
    said = capsys.readouterr()
    shown = [w for w in caught if not issubclass(w.category, HIDDEN_WARNINGS)]
    assert not shown, [str(w.message) for w in shown]
    assert not caplog.records, [r.getMessage() for r in caplog.records]
    return Outcome(status, said.out, said.err)


@pytest.mark.parametrize("name", list(CASES))
def test_one_line_no_traceback(
    name: str,
    places: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    case = CASES[name]
    if name in IN_A_PROCESS:
        done = in_a_process(case, places)
    else:
        done = in_this_process(case, places, monkeypatch, capsys, caplog)
    everything = done.stdout + done.stderr
    assert done.status in (1, 2), everything
    assert "Traceback" not in everything
    assert len(done.stderr.splitlines()) == (0 if case.stdout_lines else 1), done.stderr
    assert len(done.stdout.splitlines()) == case.stdout_lines, done.stdout
    assert case.says in done.stderr + done.stdout, everything
    assert case.never not in everything
    assert Path(places["fifo"]).is_fifo()  # nothing replaced it


def test_each_command_has_a_case_in_a_process() -> None:
    commands = {case.argv[0] for case in CASES.values() if case.argv}
    assert commands <= {CASES[name].argv[0] for name in IN_A_PROCESS if CASES[name].argv}
