"""`glossary-bot run` and `glossary-bot health`: the bot's own commands (declared in bot/cli.py)."""

from __future__ import annotations

import argparse
import sys

from bot.settings import Settings


class KeptUntilRunning:
    """A signal's handler while `run` starts, before the bot's own: what it asks is kept, and
    done once the bot's handlers are in place (`taken`). SIGHUP's default action ended the
    process, silently (a `kill -HUP` just after a restart): the reload is done then, from a
    glossary that may be older than the files by then. A stop asked as the loop starts is the
    loop's stop, which says it in the heartbeat file."""

    def __init__(self) -> None:
        self.asked = False

    def __call__(self, signum: int, frame: object) -> None:
        self.asked = True

    def taken(self) -> bool:
        """Was it asked since the last call?"""
        asked, self.asked = self.asked, False
        return asked


reload_when_running = KeptUntilRunning()  # SIGHUP, from the command line's start
stop_when_running = KeptUntilRunning()  # SIGTERM and Ctrl-C, from the loop's start (`runner`)


def run_bot(args: argparse.Namespace) -> int:
    from bot.discord_app.runner import run_to_exit

    settings: Settings = args.settings
    return run_to_exit(settings)


def run_health(args: argparse.Namespace) -> int:
    from bot.heartbeat import MAX_AGE, check_heartbeat

    settings: Settings = args.settings
    path = settings.heartbeat_path
    if path is None:
        print(
            "glossary-bot: HEARTBEAT_PATH is not set, so there is no heartbeat to check",
            file=sys.stderr,
        )
        return 2
    max_age, interval = args.max_age or MAX_AGE, settings.heartbeat_interval
    if max_age <= interval:  # a healthy bot's file would read stale between two of its beats
        print(
            f"glossary-bot: --max-age {max_age:g} is not longer than HEARTBEAT_INTERVAL={interval:g} "
            "(the seconds between the bot's heartbeats): give a longer --max-age, or the bot and "
            "health a shorter HEARTBEAT_INTERVAL",
            file=sys.stderr,
        )
        return 2
    healthy, why = check_heartbeat(path, max_age)
    print(why, file=sys.stdout if healthy else sys.stderr)
    return 0 if healthy else 1
