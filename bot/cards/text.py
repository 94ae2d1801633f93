"""A card for the terminal (`glossary-bot define`): the same content as the Discord embed."""

from __future__ import annotations

import textwrap

from bot.cards.quote import one_line, quote
from bot.glossary import Entry, Glossary
from bot.glossary.letters import fit_around
from bot.search.query import query_core
from bot.search.results import SearchResult

WIDTH = 88
QUOTED = 100  # characters of the query repeated in a card's footer
# Spaces or invisible characters only: nothing was asked, so no "No entry for “”" and no miss.
NOTHING_ASKED = "Nothing to look up: type a term, an acronym or a short description."
LINK_ASKED = (
    "That is a link: I look up terms, not links. Type a term, an acronym or a short description."
)


def how_matched(result: SearchResult) -> str | None:
    """`matched "kv cahce" as a typo`, `matched "什么是注意力机制" in translation`, or None when
    the query named the entry exactly, as typed. What matched is quoted, not the question it was
    written in: the alias or name search found in it (`SearchResult.matched`: "what is zorbrag?"
    `matched "zorbrag" as this server's alias`), else the term the question asks (its core: "so
    what is kv cahce?" `matched "kv cahce" as a typo`)."""
    asked = f'matched "{_quoted(result)}"'
    if result.strategy in (None, "exact", "id"):
        return f"{asked} in translation" if result.translated else None
    label = (
        NAME_WRITTEN
        if result.name_written
        else STRATEGY_LABELS.get(result.strategy, result.strategy)
    )
    return f"{asked} in translation, {label}" if result.translated else f"{asked} {label}"


def _quoted(result: SearchResult) -> str:
    """What matched, as the footer quotes it: a long text cut around the part the card's name
    matched, which a cut at the end would lose ("what is " + 95 letters + " kv cahce")."""
    said = one_line(_what_matched(result))
    if len(said) > QUOTED and result.entry is not None:
        from bot.search.similarity import where_named  # rapidfuzz: only for a long text

        span = where_named(said, result.entry.names)
        if span is not None:
            return fit_around(said, *span, QUOTED)
    return quote(said, QUOTED)


def _what_matched(result: SearchResult) -> str:
    """The words of the query that found the card: as typed where it is all term (or read in
    translation), else as search read them."""
    if result.matched:
        return result.matched
    core = query_core(result.normalized_query)
    framed = not result.translated and core and core != result.normalized_query
    return core if framed else result.query


STRATEGY_LABELS = {
    "alias": "as another name",
    "server-alias": "as this server's alias",
    "acronym": "as an acronym",
    "expansion": "as an expansion",
    "match-term": "as a related form",
    "plural": "as a plural",
    "prefix": "as the start of a name",
    "fuzzy": "as a typo",
    "description": "by its description",
    "semantic": "by what it means",
}
# The card's name written in a longer text, which its description or meaning then weighed.
NAME_WRITTEN = "by the name written in it"


def render_entry_text(entry: Entry, glossary: Glossary, *, matched: str | None = None) -> str:
    lines = [entry.display_title, "=" * min(len(entry.display_title), WIDTH)]
    if entry.summary:
        lines += [_wrap(entry.summary), ""]
    lines += [_wrap(entry.definition), ""]
    if entry.boundary:
        lines += ["What it is not:", _wrap(entry.boundary, indent="  "), ""]
    if entry.plain:
        lines += ["In plain words:", _wrap(entry.plain, indent="  "), ""]
    for note in entry.notes:
        app = glossary.source(note.source).app_name or glossary.source(note.source).name
        lines.append(_wrap(f"Note from {app}: {note.text}", indent="  "))
    if entry.notes:
        lines.append("")
    for other in entry.sources[1:]:
        name = glossary.source(other.source).name
        lines += [f"As the {name} puts it:", _wrap(other.definition, indent="  "), ""]
    related = [glossary[r].title for r in entry.related if r in glossary]
    if related:
        lines += [_wrap("Related: " + ", ".join(related)), ""]
    if entry.reference:
        lines += [f"Reference: {entry.reference}", ""]
    sources = ", ".join(glossary.source(s.source).name for s in entry.sources)
    footer = f"{entry.category} · {sources}" + (f" · {matched}" if matched else "")
    lines.append(footer)
    return "\n".join(lines)


def render_result_text(result: SearchResult, glossary: Glossary) -> str:
    if result.status == "match" and result.entry is not None:
        return render_entry_text(result.entry, glossary, matched=how_matched(result))
    names = [s.title for s in result.suggestions]
    if result.status == "suggest" and names:
        return "Did you mean: " + "; ".join(names) + "?"
    if result.asked_nothing:
        return NOTHING_ASKED
    text = f'No entry for "{result.query.strip()}".'
    return text + (" Closest: " + "; ".join(names) + "." if names else "")


def _wrap(text: str, indent: str = "") -> str:
    return "\n\n".join(
        textwrap.fill(p, WIDTH, initial_indent=indent, subsequent_indent=indent)
        for p in text.split("\n\n")
    )
