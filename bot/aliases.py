"""Moderators' aliases: what makes an alias acceptable. No discord, no database here.

An alias is checked as NFKC-normalised text (fullwidth "＠everyone" is "@everyone"), and against
exactly the keys search would match it on (`search_keys`): its compact form, its core, their
other number. It may not take a key that a glossary name or another of the server's aliases
already answers to, since search would then open one or the other by accident.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Mapping, Sequence
from pathlib import Path

from bot import limits
from bot.glossary import Entry, Glossary, load_glossary
from bot.glossary.keys import compact, normalize
from bot.glossary.lookalikes import alias_lookalikes, glossary_name_alike, looks_like
from bot.glossary.markup import bold
from bot.glossary.name_rules import (
    framing_refusal,
    markup_read_away,
    markup_refusal,
    name_refusal,
)
from bot.glossary.server_terms import ServerTerm, TermProblem
from bot.search import SearchResult
from bot.search.index import Aliases, SearchIndex
from bot.search.local import LocalGlossary, compile_local
from bot.search.query import only_framing, query_core
from bot.search.server_aliases import ServerAliases, search_keys

MAX_ALIAS_LENGTH = limits.ALIAS


class AliasRejected(ValueError):
    """The alias cannot be added; the message says why, for the moderator."""


def alias_text(text: str) -> str:
    """The alias as it will be stored (NFKC, trimmed), or AliasRejected saying why not."""
    text = unicodedata.normalize("NFKC", text).strip()
    refusal = name_refusal(text, "An alias")
    if refusal:
        raise AliasRejected(refusal)
    return text


def check_alias(
    text: str, entry_id: str, index: SearchIndex, server: Aliases = None
) -> tuple[str, str]:
    """(key, text to store) for an alias of `entry_id` in a server with aliases `server`, or
    AliasRejected saying why (naming the entry that already answers to it)."""
    typed, text = text.strip(), alias_text(text)
    key = normalize(text)
    if not key or not compact(key):
        raise AliasRejected("That alias is empty once punctuation and spacing are removed.")
    if len(key) > MAX_ALIAS_LENGTH:
        # some characters expand as search reads them (NFKC: "ﷺ" is 18 letters): say so
        grew = len(typed) <= MAX_ALIAS_LENGTH
        expands = (
            f" as search reads it: the {len(typed)} typed expand to {len(key)}" if grew else ""
        )
        raise AliasRejected(f"An alias can be at most {MAX_ALIAS_LENGTH} characters long{expands}.")
    if only_framing(key):
        raise AliasRejected(framing_refusal(text))
    read = markup_read_away(text)
    if read is not None:
        raise AliasRejected(markup_refusal(text, read))
    entry = index.entry(entry_id)
    if entry is None:
        # A title or acronym given for the id (a hand-made import file): name the id it meant.
        named = index.named_by(entry_id, exactly=True)
        hint = (
            f" It is a name of {bold(named[0].display_title)}, whose id is “{named[0].id}”."
            if named
            else ""
        )
        raise AliasRejected(f"There is no glossary entry with the id “{entry_id}”.{hint}")
    said = as_typed(text, key)
    others = [e for e in index.named_by(key) if e.id != entry_id]
    if others:
        raise AliasRejected(_already_names(text, key, others[0], index))
    if entry in index.named_by(key, exactly=True):
        raise AliasRejected(
            f"{said} is already a name of {bold(entry.display_title)}: nothing to add."
        )
    lookalike = lookalike_refusal(text, entry, index, server)
    if lookalike:
        raise AliasRejected(lookalike)
    leads_to = index.leads_to(key)
    if leads_to is not None and leads_to.id != entry_id:
        raise AliasRejected(
            f"“{text}” already leads to {bold(leads_to.display_title)} (`/define` opens it, or "
            "offers it alone, for this text), so an alias would take it away."
        )
    aliases = index.server_aliases(server)
    for held in sorted(search_keys(key)):
        alias = aliases.claims.get(held)
        other = index.entries[alias.entry] if alias is not None else entry
        if alias is not None and other.id != entry_id:
            same = "" if alias.text == key else f" (as “{alias.text}”: search reads them alike)"
            raise AliasRejected(
                f"{said} is already this server's alias for {bold(other.display_title)}{same}. "
                "Remove it first to change it."
            )
    return key, text


def as_typed(text: str, key: str) -> str:
    """The alias `text` quoted as the moderator typed it, then how search reads it (`key`) where
    that is more than a change of case or spacing ("Zorb-Lax" is read as "zorb lax")."""
    if " ".join(text.casefold().split()) == key:
        return f"“{text}”"
    return f"“{text}” (search reads it as “{key}”)"


def _already_names(text: str, key: str, other: Entry, index: SearchIndex) -> str:
    """Why `text` (search's `key`) cannot be an alias: search reads it as a name of `other`.
    Said how, when the moderator did not type that name itself ("the gate" for the bundled
    Gate)."""
    core = query_core(key)
    if core == key or other in index.named_by(key, exactly=True):
        return f"{as_typed(text, key)} already names {bold(other.display_title)} in the glossary."
    said = f"“{text}” already names {bold(other.display_title)} in the glossary"
    return (
        f"{said}: search reads it as “{core}”, leaving out the words around a name (“the”, "
        f"“a”, “what is”), so the alias would take that name from {bold(other.display_title)}. "
        "Choose one that is not another entry's name with such words around it."
    )


def lookalike_refusal(
    text: str, entry: Entry, index: SearchIndex, server: Aliases = None
) -> str | None:
    """Why `text` cannot be a name of `entry`: it looks like (`lookalikes`) a name of another
    entry, the server's terms and aliases included; or None."""
    aliases = index.server_aliases(server).lookalikes
    found = glossary_name_alike(index, index.entries, aliases, text, apart_from=entry)
    if found is None:
        return None
    held, owner = found
    if isinstance(owner, str):  # an alias's: the entry it stands for, or its id if none
        other = index.entry(owner)
        return looks_like(text, held, other.display_title if other else owner)
    return looks_like(text, held, owner.display_title)


@functools.cache
def _bundled(paths: tuple[Path, ...] | None) -> tuple[Glossary, SearchIndex]:
    # Only names are checked here: the meaning stage is not needed.
    glossary = load_glossary(paths)
    return glossary, SearchIndex.build(glossary, semantic=False)


def server_glossary_of(
    terms: Sequence[ServerTerm],
    glossary_paths: Sequence[Path] | None,
    aliases: Mapping[str, str] | None = None,
) -> LocalGlossary:
    """What a server's aliases are checked against outside the bot (`aliases import`): the
    names of the glossary the bot serves (`glossary_paths`, the setting's; None: the bundled
    data) with the server's own terms among them, as `/alias add` sees it (and its stored
    `aliases`, key -> entry id, for `stats`' misses)."""
    glossary, bundled = _bundled(tuple(glossary_paths) if glossary_paths else None)
    return compile_local(glossary, bundled, terms, aliases or {})


def miss_answered(query: str, local: LocalGlossary, guess: SearchResult | None = None) -> bool:
    """Whether a missed search is no gap left in the server's glossary `local`: it opens a card
    now (`guess`: its search now, if made) and can be no alias of it, being a name of its own
    (a term added since, a suggestion accepted, an entry an upgrade brought), as an alias made
    of a miss clears it. One search now places but by no name of its own is still a gap. The
    one reading of `/stats`' and `glossary-bot stats`' "searches that found nothing"."""
    if guess is None:
        guess = local.index.search(query, local.aliases)
    if guess.entry is None:
        return False
    try:
        check_alias(query, guess.entry.id, local.index, local.aliases)
    except AliasRejected:
        return True
    return False


def compiled_aliases(local: LocalGlossary, aliases: Mapping[str, str]) -> ServerAliases:
    """A server's aliases as stored (key -> entry id) compiled against its glossary `local`: an
    alias of a term that words a bundled entry stands for that entry's card, as search reads
    it (the term's own id names no card)."""
    return ServerAliases(aliases, local.index.positions, local.card_ids)


def validate_alias(text: str, entry_id: str, index: SearchIndex, server: Aliases = None) -> str:
    """For `glossary-bot aliases import`: the key, or ValueError naming the problem. `index` is
    the server's (`server_glossary_of`), `server` its aliases (`compiled_aliases`, grown line by
    line with their look-alike index), to refuse near-duplicates."""
    return check_alias(text, entry_id, index, server)[0]


def alias_clashes(
    term: ServerTerm,
    aliases: Mapping[str, str],
    bundled: Glossary | None = None,
    terms: Sequence[ServerTerm] = (),
) -> list[TermProblem]:
    """A server term may not take a name one of the server's aliases (key -> entry id) answers
    to for another entry: search would open one or the other by accident. The same keys as
    between aliases (`search_keys`), and no name that looks like such an alias (`lookalikes`);
    the entry is named by its title (the server's `terms`, else `bundled`), never its id. Run
    inside the term's write, against the aliases then. Many terms: `AliasClashes`."""
    return AliasClashes(aliases, bundled, terms).of(term)


class AliasClashes:
    """`alias_clashes` for many terms against one server's aliases, compiled once: an import
    of 2,000 terms compiled 1,000 aliases for each, 113 s inside the write (on the event loop,
    every server waiting) before scale50."""

    def __init__(
        self,
        aliases: Mapping[str, str],
        bundled: Glossary | None = None,
        terms: Sequence[ServerTerm] = (),
    ) -> None:
        self.ids = sorted(set(aliases.values()))
        self.claims = ServerAliases(aliases, {e: n for n, e in enumerate(self.ids)}).claims
        self.lookalikes = alias_lookalikes(aliases)
        self.bundled, self.terms = bundled, terms

    def of(self, term: ServerTerm) -> list[TermProblem]:
        """The problems of `term`'s names with the aliases (none: it may take them)."""
        ids, claims, terms, bundled = self.ids, self.claims, self.terms, self.bundled
        names = [("title", term.title), ("acronym", term.acronym or "")]
        names += [("aliases", name) for name in term.aliases]
        problems = []
        for field, name in names:
            held = [claims[k] for k in sorted(search_keys(name)) if k in claims]
            other = next((a for a in held if ids[a.entry] != term.id), None)
            if other is not None:
                problems.append(
                    TermProblem(
                        field,
                        f"“{name}” is already this server's alias “{other.text}” (for "
                        f"{bold(_title(ids[other.entry], terms, bundled))}). Remove the alias "
                        "first (`/alias remove`) or choose another name.",
                        term.title,
                    )
                )
                continue
            alike = self.lookalikes.like(name, apart_from=[term.id]) if name else None
            if alike is not None:
                title = _title(alike[0], terms, bundled)
                problems.append(TermProblem(field, looks_like(name, alike[1], title), term.title))
        return problems


def _title(entry_id: str, terms: Sequence[ServerTerm], bundled: Glossary | None) -> str:
    """What a moderator knows the entry `entry_id` by: its server term's title, else its card's."""
    term = next((t for t in terms if t.id == entry_id), None)
    if term is not None:
        return term.title
    entry = bundled.get(entry_id) if bundled is not None else None
    return entry.display_title if entry else entry_id
