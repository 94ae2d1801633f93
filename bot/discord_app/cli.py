"""`glossary-bot run`: the bot's own command."""

from __future__ import annotations

import argparse


def add_subcommands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    run = sub.add_parser(
        "run",
        help="run the Discord bot (settings from the environment and .env)",
        description="Connect to Discord and answer /define, mentions and 'Explain terms'. "
        "Settings come from the environment and a .env file; see .env.example.",
    )
    run.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from bot.discord_app.runner import run

    return run()
