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

    health = sub.add_parser(
        "health",
        help="exit 0 if the running bot is healthy (fresh heartbeat), 1 if not",
        description="Read the heartbeat file (HEARTBEAT_PATH) the bot keeps fresh while it is "
        "connected to Discord and can write its database.",
    )
    health.add_argument("--max-age", type=float, default=None, help="seconds (default 45)")
    health.set_defaults(func=_health)


def _run(args: argparse.Namespace) -> int:
    from bot.discord_app.runner import run

    return run()


def _health(args: argparse.Namespace) -> int:
    import sys

    from bot.discord_app.health import MAX_AGE, check_heartbeat
    from bot.settings import Settings

    path = Settings().heartbeat_path
    if path is None:
        print(
            "glossary-bot: HEARTBEAT_PATH is not set, so there is no heartbeat to check",
            file=sys.stderr,
        )
        return 2
    healthy, why = check_heartbeat(path, args.max_age or MAX_AGE)
    print(why, file=sys.stdout if healthy else sys.stderr)
    return 0 if healthy else 1
