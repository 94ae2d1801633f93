"""A name in a message for people (a refusal, a problem in an import) stands out in Discord's
bold. Such a message is written once, with `bold`, and each edge shows it its own way: Discord
as written, the command line through `for_terminal`, where the asterisks would show. And the
markup around a name that search reads away (`without_chat_markup`): here, so that the glossary
layer's refusals quote a name as search reads it."""

from __future__ import annotations

import re

_BOLD = re.compile(r"\*\*(.+?)\*\*", re.DOTALL)


def bold(name: str) -> str:
    return f"**{name}**"


def for_terminal(message: str) -> str:
    """`message` as a terminal shows it: the names `bold` set off, plain."""
    return _BOLD.sub(r"\1", message)


# Discord markup around a term in a chat message, which names nothing: mentions (<@1>, <@!1>,
# <@&2>, <#3>, @everyone, @here), custom emoji (<:name:1>, <a:name:1>), a code fence's language
# line ("```py\n"), heading and subtext marks ("# ", "-# "), a list item's number or bullet
# ("1. rag", "2) rag", "• rag": a pasted list) and a masked link's target ("[rag](https://...)"
# reads "rag"). `normalize` already drops `*_~|>`, backticks and "-" ("- rag", "> rag").
_CHAT_MARKUP = re.compile(
    r"<(?:[@#][!&]?|a?:\w+:)\d+>|@(?:everyone|here)\b|```\w*\n(?=[^`]*\w)"
    r"|^[ \t]*(?:#{1,3}|-#|\d{1,3}[.)]|[•◦‣▪])[ \t]|\]\(<?https?://[^)\s]*>?\)",
    re.IGNORECASE | re.MULTILINE,
)


_LIST_STARTS = frozenset("0123456789•◦‣▪")


def without_chat_markup(text: str) -> str:
    """`text` with the Discord markup around its words blanked out (see _CHAT_MARKUP)."""
    if not any(c in text for c in "<@`#]\n") and text.lstrip()[:1] not in _LIST_STARTS:
        return text  # most queries: nothing to look for
    return _CHAT_MARKUP.sub(" ", text)
