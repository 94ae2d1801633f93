"""The one parser: every command's handler exists, and choices copied from below stay equal."""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Iterator

from bot import cli
from bot.storage.periods import PERIODS


def _commands(parser: argparse.ArgumentParser, prefix: str = "") -> Iterator[tuple[str, str]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                handler = sub.get_default("handler")
                if handler:
                    yield f"{prefix}{name}", handler
                yield from _commands(sub, f"{prefix}{name} ")


def test_every_handler_resolves_to_a_function() -> None:
    commands = dict(_commands(cli.build_parser()))
    assert set(commands) >= {"check", "define", "stats", "aliases import", "backup", "run"}
    for handler in commands.values():
        assert callable(cli._resolve(handler)), handler


def test_the_stats_periods_are_the_stores() -> None:
    assert cli.PERIODS == PERIODS


def test_help_imports_no_command() -> None:
    probe = (
        "import sys, contextlib, io\n"
        "from bot.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    main(['--help'])\n"
        "print(sorted(m for m in sys.modules if m.startswith(('bot.', 'pydantic', 'discord'))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "['bot.cli', 'bot.errors']"
