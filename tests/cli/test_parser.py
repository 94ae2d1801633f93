"""The one parser: every command's handler exists, and choices copied from below stay equal."""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Iterator

import pytest

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


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    [action] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(action.choices)


@pytest.mark.parametrize("name", list(cli.COMMANDS))
def test_a_command_parsed_alone_is_the_same_command(name: str) -> None:
    """`build_parser(name)` (what `main` builds for arguments naming a command) has that command
    only, with the help, handlers and subcommands the whole parser gives it."""
    alone, whole = _subparsers(cli.build_parser(name)), _subparsers(cli.build_parser())
    assert list(alone) == [name]
    assert alone[name].format_help() == whole[name].format_help()
    assert dict(_commands(alone[name])) == dict(_commands(whole[name]))
    assert alone[name]._defaults.keys() == whole[name]._defaults.keys()


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["check", "-q"], "check"),
        (["--version", "stats"], "stats"),
        (["-h", "check"], None),  # the general help lists every command
        (["--nope", "check"], None),
        (["frobnicate"], None),  # "invalid choice" lists them too
        ([], None),
        (["--", "check"], None),
    ],
)
def test_only_a_plain_command_word_narrows_the_parser(argv: list[str], named: str | None) -> None:
    assert cli._named_command(argv) == named


def test_version_is_printed_on_stdout() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "--version"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert done.stderr == ""
    assert done.stdout.startswith("glossary-bot ")
    assert done.stdout.count("\n") == 1
