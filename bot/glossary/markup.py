"""A name in a message for people (a refusal, a problem in an import) stands out in Discord's
bold. Such a message is written once, with `bold`, and each edge shows it its own way: Discord
as written, the command line through `for_terminal`, where the asterisks would show."""

from __future__ import annotations

import re

_BOLD = re.compile(r"\*\*(.+?)\*\*", re.DOTALL)


def bold(name: str) -> str:
    return f"**{name}**"


def for_terminal(message: str) -> str:
    """`message` as a terminal shows it: the names `bold` set off, plain."""
    return _BOLD.sub(r"\1", message)
