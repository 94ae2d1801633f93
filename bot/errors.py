"""Errors whose message is the whole story for an operator: printed as one line, no traceback."""

from __future__ import annotations


class ReportedError(Exception):
    """The command line prints `glossary-bot: <message>` and exits with `exit_code`."""

    exit_code = 1
