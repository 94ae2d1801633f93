"""The Discord card: an embed plus a description of its buttons, built from an entry.

Pure: no client, no network. Every limit is respected by construction (see bot.limits): text is cut
at a sentence boundary, and optional parts are dropped, least useful first, until the card fits.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import discord

from bot import limits
from bot.glossary import Entry, Glossary
from bot.glossary.check import card_link
from bot.glossary.letters import fit

BRAND_COLOUR = 0x5865F2  # Discord's blurple: the bot's own messages (about, lists, stats)
CATEGORY_COLOURS = {
    "Fundamentals": BRAND_COLOUR,
    "Retrieval & Context": 0x3BA55D,
    "Agents & Interfaces": 0xEB459E,
    "Training & Adaptation": 0xFAA61A,
    "Inference & Operations": 0x00A8FC,
    "Quality & Governance": 0xED4245,
    "Modality & Production": 0x9B59B6,
}
DEFAULT_COLOUR = 0x99AAB5
RELATED_BUTTONS = limits.RELATED_BUTTONS  # two rows; the rest go into a select menu
OTHER_SOURCE_INLINE = 400  # another source's wording longer than this goes behind a button


@dataclass(frozen=True)
class CardLayout:
    """What the card's components should offer, for the view builder."""

    related_buttons: tuple[Entry, ...] = ()
    related_select: tuple[Entry, ...] = ()
    has_plain: bool = False
    sources_button: bool = False


@dataclass
class _Fields:
    items: list[tuple[str, str]] = field(default_factory=list)

    def add(self, name: str, value: str | None) -> None:
        if value and value.strip():
            self.items.append(
                (fit(name, limits.EMBED_FIELD_NAME), fit(value, limits.EMBED_FIELD_VALUE))
            )


# The backslash discord.py's escape_markdown puts before a quote, heading or list mark at the
# start of a line ("\> ", "\#", "\-"): always the text's first character here, a name being
# one line.
_LINE_START_ESCAPE = re.compile(r"^\\(?=>|#|\s*-)")


def shown_name(name: str, *, mid_line: bool = False) -> str:
    """A name (an entry's title) in text Discord renders as Markdown, shown as typed: a server's
    term may be titled with `||`, `~~` or `*` ("A* Search"), which would hide or strike words.
    `mid_line`: after the bot's own words on the line ("**", "1. ", ", "), where a leading ">",
    "#" or "-" opens nothing, so it takes no backslash ("**#define**", not "**\\#define**")."""
    shown = discord.utils.escape_markdown(name)
    return in_a_line(shown) if mid_line else shown


def in_a_line(shown: str) -> str:
    """A name as `shown_name` shows it (a card's title), set after the bot's own words on a line
    ("**#define** has a card, but …"): without the backslash before a leading ">", "#" or "-"."""
    return _LINE_START_ESCAPE.sub("", shown)


def source_names(entry: Entry, glossary: Glossary) -> str:
    return ", ".join(glossary.source(s.source).name for s in entry.sources)


def card_layout(entry: Entry, glossary: Glossary, *, first: str | None = None) -> CardLayout:
    """`first`: an entry to offer before the related ones (the other side of "X vs Y")."""
    ids = dict.fromkeys(r for r in (first, *entry.related) if r and r != entry.id)
    related = tuple(glossary[r] for r in ids if r in glossary)
    select = related[RELATED_BUTTONS:][: limits.SELECT_OPTIONS]
    return CardLayout(
        related_buttons=related[:RELATED_BUTTONS],
        related_select=select,
        has_plain=bool(entry.plain),
        sources_button=_other_sources_are_long(entry),
    )


def _other_sources_are_long(entry: Entry) -> bool:
    return any(len(s.definition) > OTHER_SOURCE_INLINE for s in entry.sources[1:])


def render_card(
    entry: Entry,
    glossary: Glossary,
    *,
    matched: str | None = None,
    lookups: int | None = None,
    plain: bool = False,
) -> discord.Embed:
    """The card for `entry`; `plain` shows the plain-words version in place of the definition."""
    if plain and entry.plain:
        description = f"**In plain words:** {entry.plain}"
    else:
        description = (
            f"**{entry.summary}**\n\n{entry.definition}" if entry.summary else entry.definition
        )

    fields = _Fields()
    fields.add("🚫 What it is not", entry.boundary)
    related = [glossary[r].title for r in entry.related if r in glossary]
    fields.add(
        "Related", ", ".join(shown_name(title, mid_line=i > 0) for i, title in enumerate(related))
    )
    for note in entry.notes:
        source = glossary.source(note.source)
        fields.add(f"Note from {source.app_name or source.name}", note.text)
    if not _other_sources_are_long(entry):
        for other in entry.sources[1:]:
            fields.add(f"As the {glossary.source(other.source).name} puts it", other.definition)

    footer = " · ".join(
        part
        for part in (
            entry.category,
            source_names(entry, glossary),
            matched,
            f"looked up {lookups:,} time{'s' if lookups != 1 else ''} here" if lookups else None,
        )
        if part
    )
    return _assemble(entry, description, fields.items, footer)


def card_title(entry: Entry) -> str:
    """The title `entry`'s card shows: its title and acronym as typed (Discord renders Markdown
    in an embed's title: a server's term "**Zorb** _job_" was drawn bold and italic there, as
    typed in every answer naming it), fitted to Discord's 256 characters (a term stored before
    that was checked may be longer)."""
    return fit(shown_name(entry.display_title), limits.EMBED_TITLE)


def _assemble(
    entry: Entry, description: str, fields: list[tuple[str, str]], footer: str
) -> discord.Embed:
    title = card_title(entry)
    description = fit(description, limits.EMBED_DESCRIPTION)
    footer = fit(footer, limits.EMBED_FOOTER)
    fields = fields[: limits.EMBED_FIELDS]
    # Drop optional fields from the end until the whole card fits in Discord's total.
    while fields and _total(title, description, fields, footer) > limits.EMBED_TOTAL:
        fields.pop()
    overflow = _total(title, description, fields, footer) - limits.EMBED_TOTAL
    if overflow > 0:
        description = fit(description, len(description) - overflow)

    embed = discord.Embed(
        title=title,
        # One stored before `check` refused it would have Discord refuse the whole card.
        url=card_link(entry.reference) if entry.reference else None,
        description=description,
        colour=CATEGORY_COLOURS.get(entry.category, DEFAULT_COLOUR),
    )
    for name, value in fields:
        embed.add_field(name=name, value=value, inline=False)
    embed.set_footer(text=footer)
    return embed


def _total(title: str, description: str, fields: list[tuple[str, str]], footer: str) -> int:
    return len(title) + len(description) + len(footer) + sum(len(n) + len(v) for n, v in fields)


def render_sources(entry: Entry, glossary: Glossary) -> discord.Embed:
    """Every source's own wording of the entry, for the "Other sources" button."""
    fields = _Fields()
    for text in entry.sources:
        fields.add(f"{glossary.source(text.source).name}: {text.title}", text.definition)
    return _assemble(
        entry, "How each glossary words it:", fields.items, source_names(entry, glossary)
    )
