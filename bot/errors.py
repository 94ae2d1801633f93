"""Errors whose message is the whole story for an operator: printed as one line, no traceback."""

from __future__ import annotations

import sys


class ReportedError(Exception):
    """The command line prints `glossary-bot: <message>` and exits with `exit_code`."""

    exit_code = 1


def print_error(message: str) -> int:
    """Say `glossary-bot: error: <message>` on stderr, as a command's one line for an operator;
    returns 1, the exit status of a command that failed."""
    print(f"glossary-bot: error: {message}", file=sys.stderr)
    return 1
