"""The base of every button and select the bot sends. Their custom ids carry what they act on
(discord.py's DynamicItem), so they keep working days later and after a restart: no view state
in memory. A subclass says how to rebuild itself from its custom id (`restore`)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import Any, Generic, Self, TypeVar

import discord

from bot import limits
from bot.glossary.letters import fit
from bot.glossary.markup import without_chat_markup
from bot.glossary.name_rules import framing_refusal, markup_read_away, name_refusal
from bot.search.query import only_framing

I = TypeVar("I", bound=discord.ui.Item[Any])  # noqa: E741  (discord.py's own name for it)
ENTRY = r"(?P<entry>[a-z0-9][a-z0-9-]{0,70})"  # an entry's id as `carried`
OWNER = r"(?P<owner>[0-9]{1,20})"
NONCE = r"(?P<nonce>[0-9a-f]{12})"  # a form's draft (term_drafts)


class Restorable(discord.ui.DynamicItem[I], Generic[I], template=r"(?!)"):
    @classmethod
    def restore(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> Self:
        raise NotImplementedError

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        return cls.restore(match, item)


# An entry's id goes into a custom id (100 characters) beside a prefix and a user's 20 digits,
# and is a menu option's value (100). An operator's data puts no cap on ids (a Markdown entry's
# is its title's slug): a longer one is carried as its head and a hash, joined by "--", which no
# slug holds, and found again by it (`replies.entry_of`).
CARRIED = 60


def carried(entry_id: str) -> str:
    if len(entry_id) <= CARRIED:
        return entry_id
    digest = hashlib.sha256(entry_id.encode()).hexdigest()[:8]
    return f"{entry_id[: CARRIED - 10].rstrip('-')}--{digest}"


def options_of(item: discord.ui.Item[Any]) -> list[discord.SelectOption]:
    """The options a select was sent with (discord.py rebuilds it from the interaction)."""
    return list(getattr(item, "options", []))


# The "Suggest it" button of a "no entry" answer (sent by replies, handled by the suggestions
# cog): the query it offers to suggest, cut to fit a custom id.
SUGGEST_PREFIX = "gb:suggest:"
SUGGEST_QUERY = 80


def suggest_button(query: str) -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label="Suggest it",
        emoji="✍️",
        style=discord.ButtonStyle.primary,
        custom_id=SUGGEST_PREFIX + suggested_name(query),
        row=1,
    )


def suggested_name(query: str) -> str:
    """The name "Suggest it" puts in the form for a missed `query`: one line, cut to fit."""
    return " ".join(query.split())[:SUGGEST_QUERY]


def suggested_title(title: str) -> str:
    """A suggestion's name as search reads it: Discord markup it reads away at the start (a
    heading, subtext or list mark: "# Zorbqx" is "Zorbqx", `markup_read_away`) left off, the
    member's case kept. What they looked for, and a name a moderator can accept: a term's name
    may not keep the mark (left75), and the form that accepts it refused it on save. Every
    door a suggestion's name comes in by: `/suggest`'s term, "Suggest it", the form's own;
    after `suggestion_refusal`, which says its refusals of the name as typed (a mention, which
    search also reads away, is refused, not dropped)."""
    if markup_read_away(title) is None:
        return title
    read = " ".join(without_chat_markup(title).split())
    return read or title


def suggestion_refusal(title: str) -> str | None:
    """Why no suggestion may be named `title`, or None: the one reading of "can this be
    suggested", for `/suggest`'s refusal and for whether a miss offers "Suggest it" at all. A
    name search reads as no term (`only_framing`: a question's wording, "what is", or emoji and
    symbols alone, "🔧") is refused as the term form that would accept it refuses it."""
    refusal = name_refusal(title, "A term's name")
    if refusal is None and only_framing(title):  # "# WHAT IS??" (a heading mark) too, said so
        return framing_refusal(title, "a name")
    return refusal


def edit_again_button(custom_id: str) -> discord.ui.Button[Any]:
    """Reopens a form that was refused (or could not be saved) with what was typed in it."""
    return discord.ui.Button(
        label="Edit again", style=discord.ButtonStyle.primary, custom_id=custom_id
    )


def submitted_values(data: dict[str, Any]) -> dict[str, str]:
    """A MODAL_SUBMIT's text inputs by custom id (in action rows, or in labels)."""
    values: dict[str, str] = {}

    def walk(components: Sequence[dict[str, Any]]) -> None:
        for component in components:
            if component.get("type") == 4:
                values[str(component.get("custom_id"))] = str(component.get("value") or "")
            walk(component.get("components") or [])
            inner = component.get("component")
            if isinstance(inner, dict):
                walk([inner])

    walk(data.get("components") or [])
    return values


def typed_back(head: str, values: dict[str, str], limit: int = limits.MESSAGE_CONTENT) -> str:
    """`head`, then a form's text by input, inert (no mention, no Markdown), in one message
    (fitted to `limit`): a form that could not be saved gives back what was typed."""
    lines = [head]
    for key, value in values.items():
        if value.strip():
            lines.append(f"**{inert(key, mid_line=True)}**: {inert(value, mid_line=True)}")
    return fit("\n".join(lines), limit)


# What `inert` escapes (a backslash before a mark that is not a letter, digit or space shows the
# mark): discord.py's escape_markdown's marks, every "<" (Discord renders timestamps, channel and
# role mentions, command links and emoji after one) and every "[" before a "](" (escape_markdown
# escapes one "[" for a whole line from its first "[" to its last ")", leaving the bold, spoilers
# and masked links between live); a quote, heading or list's mark at a line's start after spaces
# too, and a numbered list's ".". Web addresses as they are, as escape_markdown leaves them (a
# backslash in one changes where it goes; a link shows as typed).
_INERT = re.compile(
    r"(?P<url>(?:https?|steam)://[^\s<]+[^<.,:;\"'\]\s])"
    r"|(?P<mark>[_\\~|*`<\[])"
    r"|^(?P<lead>[ \t]*)(?:(?P<block>>|#|-|\+)|(?P<number>\d+)\.(?=\s))",
    re.MULTILINE,
)


def inert(text: str, *, mid_line: bool = False) -> str:
    """`text` shown as typed: no Markdown, no masked link, no ping (`_INERT` says what is
    escaped; a bare web address still links, as typed). `mid_line`: `text` goes on a line the
    bot's own words began (after "“", "**", "~~", "of "), where a leading quote, heading or list
    mark opens nothing and so takes no backslash; the lines after its first still do."""
    link_ends = text.rfind("](")

    def escaped(match: re.Match[str]) -> str:
        if match["url"]:
            return match["url"]
        if mid_line and match.start() == 0 and (match["block"] or match["number"]):
            return match[0]
        if match["mark"]:
            opens_no_link = match["mark"] == "[" and match.start() > link_ends
            return match["mark"] if opens_no_link else "\\" + match["mark"]
        if match["block"]:
            return match["lead"] + "\\" + match["block"]
        return match["lead"] + match["number"] + "\\."

    return discord.utils.escape_mentions(_INERT.sub(escaped, text))


# In the bot's refusals and problems what a member typed is quoted “…”; the bot's own words may
# hold its code spans (`/alias remove`) and titles in bold (a name of **Zorblax**).
_SPANS = re.compile(r"(?P<quoted>“[^”]*”)|\*\*(?P<bold>[^\n]+?)\*\*|(?P<code>`[^`\n]+`)")


def shown_as_typed(text: str) -> str:
    """A refusal or problem line with what a member typed (titles, names, aliases, ids, a
    file's keys) shown as typed: no Markdown, timestamp or ping. The bot's code spans stay code
    and its bold stays bold, the title in it escaped; a quote holding ” ends early, its rest
    escaped all the same (a code span in it renders nothing, a bold one is only bold)."""
    out, at = [], 0
    for span in _SPANS.finditer(text):
        out.append(inert(text[at : span.start()], mid_line=at > 0))
        if span["quoted"]:
            out.append(inert(span["quoted"]))
        elif span["bold"]:
            out.append(f"**{inert(span['bold'], mid_line=True)}**")
        else:
            out.append(span["code"])
        at = span.end()
    out.append(inert(text[at:], mid_line=at > 0))
    return discord.utils.escape_mentions("".join(out))
