"""One concept, one card: fold every source's record of a concept (same id) into one Entry.

The first source in priority order leads (its title, summary, definition); later sources fill what
it lacks and keep their own wording in `Entry.sources`. Sentences a source writes about its own
application ("this app") are moved into attributed notes so they never read as if about this bot.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable
from typing import Literal

from bot.glossary.asked_as import Phrasings, phrasings_by_id, phrasings_naming_others
from bot.glossary.formats.raw import RawEntry
from bot.glossary.keys import compact, normalize, normalize_many
from bot.glossary.kinds import KindFile, kinds_by_id
from bot.glossary.models import Entry, SourceNote, SourceText
from bot.glossary.names import NameIndex
from bot.glossary.other_senses import Senses, senses_by_id
from bot.glossary.problems import Problem, did_you_mean
from bot.glossary.sources import SourceData

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")
# Signs that a pattern's match may depend on the text around it (anchors, lookarounds) or that
# it may not keep its meaning inside an alternation (group references, inline flags, named or
# conditional groups). A harmless `[^...]` counts too: such a pattern just takes the slow path.
_CONTEXT = re.compile(r"[\^$]|\\[AZ1-9]|\(\?(?![:#>])")
_GLOBAL_FLAGS = re.compile(r"\(\?[aiLmsux]+\)")  # `(?i)` at a pattern's start: no context
DERIVED_RELATED_LIMIT = 5
MAX_NAME_WORDS = 6  # longer names are not looked for in running text


def merge_sources(
    sources: list[SourceData],
    asked_as: Phrasings,
    problems: list[Problem],
    kinds: KindFile | None = None,
    senses: Senses | None = None,
) -> tuple[list[Entry], dict[str, int | None]]:
    """The merged entries with their phrasings from `asked_as`, their kinds from `kinds` and
    their other senses from `senses` (by id), and the line of each entry's leading record for
    problem reports."""
    groups: dict[str, list[RawEntry]] = {}
    patterns = {s.info.key: AppSentences(s.app_sentences) for s in sources}
    for source in sources:
        seen_in_file: set[str] = set()
        for raw in source.entries:
            if raw.id in seen_in_file:
                problems.append(
                    _problem(raw, "error", f"a second entry with id {raw.id!r} in the same file")
                )
                continue
            seen_in_file.add(raw.id)
            groups.setdefault(raw.id, []).append(raw)
            if raw.other_senses:  # one home for the glossary's, checked there
                message = (
                    "otherSenses is a server term's field in a file of terms: a glossary "
                    "entry's other senses are written in other-senses/*.toml"
                )
                problems.append(_problem(raw, "error", message))

    names = _name_index(groups)
    verbatim = {s.info.key for s in sources if s.verbatim}
    problems.extend(_shadowed_match_terms(groups, names, verbatim))
    phrasings = phrasings_by_id(groups, asked_as, problems)
    problems.extend(phrasings_naming_others(asked_as, names))
    kind_of = kinds_by_id(groups, kinds if kinds is not None else KindFile(), problems)
    senses_of = senses_by_id(groups, senses if senses is not None else Senses(), problems)
    entries = [
        _merge_group(
            entry_id,
            group,
            patterns,
            names,
            groups.keys(),
            (phrasings.get(entry_id, ()), kind_of.get(entry_id), senses_of.get(entry_id, ())),
            problems,
        )
        for entry_id, group in groups.items()
    ]
    lines = {entry_id: group[0].line for entry_id, group in groups.items()}
    return _with_derived_related(entries), lines


def _problem(
    raw: RawEntry,
    severity: Literal["error", "warning"],
    message: str,
    names: str | None = None,
) -> Problem:
    """A problem with `raw`, reported at its file and line (`names`: see `Problem`)."""
    return Problem(severity, raw.file, message, entry=raw.local_id, line=raw.line, names=names)


def _name_index(groups: dict[str, list[RawEntry]]) -> NameIndex[str]:
    """Every title, acronym and alias -> the id that owns it, for "See X." links."""
    index: NameIndex[str] = NameIndex()
    for entry_id, group in groups.items():
        for raw in group:
            index.add(entry_id, (raw.title, raw.acronym, *raw.aliases))
    return index


def _shadowed_match_terms(
    groups: dict[str, list[RawEntry]], names: NameIndex[str], verbatim: Collection[str]
) -> list[Problem]:
    """A warning for each match term that is another entry's title, acronym or other name
    ("RAG"): search ranks a name above a match term (`NameKind`), so such a term never finds
    its own entry. Not for files kept verbatim, whose text is not the maintainer's to change
    (two bundled ones: "CLIP", "DDPM")."""
    problems: list[Problem] = []
    for entry_id, group in groups.items():
        for raw in group:
            if raw.source in verbatim:
                continue
            for term in raw.match_terms:
                owner = names.owner(term)
                if owner is not None and owner != entry_id:
                    problems.append(
                        _problem(
                            raw,
                            "warning",
                            f"match term {term!r} is a name of {owner!r} "
                            f"({groups[owner][0].file}), which search finds "
                            "before a match term: text saying it finds that entry, never this "
                            "one; drop the match term",
                        )
                    )
    return problems


def _merge_group(
    entry_id: str,
    group: list[RawEntry],
    patterns: dict[str, AppSentences],
    names: NameIndex[str],
    ids: Collection[str],
    curated: tuple[tuple[str, ...], str | None, tuple[str, ...]],  # asked as, kind, senses
    problems: list[Problem],
) -> Entry:
    lead = group[0]
    asked_as, kind, other_senses = curated
    notes: list[SourceNote] = []

    def clean(raw: RawEntry, field: str, text: str | None) -> str | None:
        if not text:
            return None
        kept, moved = _split_app_sentences(text, patterns.get(raw.source, NO_APP_SENTENCES))
        notes.extend(SourceNote(source=raw.source, field=field, text=t) for t in moved)
        return kept or None

    # A definition written wholly about the source's app leaves the summary to define the term.
    definition = clean(lead, "definition", lead.definition) or lead.summary or lead.definition
    boundary = importance = plain = None
    for raw in group:
        boundary = boundary or clean(raw, "boundary", raw.boundary)
        importance = importance or clean(raw, "importance", raw.importance)
        plain = plain or clean(raw, "plain", raw.plain)

    # An entry related to itself would be a button to its own card.
    related = unique(r for raw in group for r in raw.related if r != entry_id)
    for raw in group:
        for related_id in raw.related:  # blamed on the file that names it, not the card's lead
            if related_id == entry_id:
                problems.append(
                    _problem(
                        raw, "warning", f"related id {related_id!r} is this entry itself: left out"
                    )
                )
            elif related_id not in ids:
                # A title written for an id is the likely slip of a hand edit: name the id.
                meant = names.owner(related_id)
                hint = (
                    f" (it is a name of {meant!r}: related takes ids)"
                    if meant
                    else did_you_mean(related_id, ids)
                )
                message = f"related id {related_id!r} names no entry{hint}"
                problems.append(_problem(raw, "error", message, names=related_id))
        for name in raw.see_also:
            target = names.owner(name)
            if target is None:
                problems.append(_problem(raw, "warning", f"'See {name}.' names no entry", name))
            elif target != entry_id and target not in related:
                related.append(target)

    title = lead.title
    acronym = next((r.acronym for r in group if r.acronym), None)
    own = {names.key(title), names.key(acronym or "")}
    aliases = [
        a
        for a in unique(n for r in group for n in (r.title, *r.aliases))
        if names.key(a) not in own
    ]
    return Entry(
        id=entry_id,
        title=title,
        acronym=acronym,
        aliases=tuple(unique_folded(aliases, names.key)),
        category=next((r.category for r in group if r.category), ""),
        summary=lead.summary or "",
        definition=definition,
        boundary=boundary,
        importance=importance,
        plain=plain,
        keywords=tuple(unique(k for r in group for k in r.keywords)),
        related=tuple(related),
        reference=next((r.reference for r in group if r.reference), None),
        match_terms=tuple(unique(t for r in group for t in r.match_terms)),
        match_exclusions=tuple(unique(t for r in group for t in r.match_exclusions)),
        notes=tuple(notes),
        asked_as=asked_as,
        kind=kind,
        other_senses=other_senses,
        sources=tuple(
            SourceText(**{name: getattr(r, name) for name in SourceText.__slots__}) for r in group
        ),
    )


class AppSentences:
    """A source's app_sentences patterns, and the ones worth trying on the sentences of a text.

    A pattern that says nothing of what lies around its match (no anchor, no lookaround; `\\b` is
    the same at a sentence's edge as beside the whitespace there in its text) can match one of a
    text's sentences only if it matches the text. Those are looked for in the whole text first,
    all in one alternation: one pass of the regex engine, where each pattern led by `\\b` would
    make a pass of its own, trying a match at every character. An alternation holds the patterns
    of one set of flags (`(?i)...`: the case-blind ones share a pass of their own); a verbose one
    looks alone (its comment would run on into the next branch). The others try every sentence.
    """

    def __init__(self, patterns: list[re.Pattern[str]]) -> None:
        no_context = [p for p in patterns if not _CONTEXT.search(_without_global_flags(p.pattern))]
        self.patterns = patterns
        self.everywhere = [p for p in patterns if p not in no_context]
        by_flags: dict[tuple[int, str], list[re.Pattern[str]]] = {}
        for p in no_context:
            by_flags.setdefault((p.flags, p.pattern if p.flags & re.VERBOSE else ""), []).append(p)
        # (one pass over a text, the patterns it stands for)
        self.passes: list[tuple[re.Pattern[str], list[re.Pattern[str]]]] = []
        for members in by_flags.values():
            branches = "|".join(f"(?:{_without_global_flags(p.pattern)})" for p in members)
            try:
                one_pass = (
                    members[0] if len(members) == 1 else re.compile(branches, members[0].flags)
                )
            except re.error:  # not expected of these; then they try every sentence
                self.everywhere += members
                continue
            self.passes.append((one_pass, members))

    def that_may_match(self, text: str) -> list[re.Pattern[str]]:
        found = [p for one_pass, members in self.passes if one_pass.search(text) for p in members]
        return self.everywhere + found if found else self.everywhere


def _without_global_flags(pattern: str) -> str:
    flags = _GLOBAL_FLAGS.match(pattern)  # Python allows them only at the start
    return pattern[flags.end() :] if flags else pattern


NO_APP_SENTENCES = AppSentences([])


def _split_app_sentences(text: str, app: AppSentences) -> tuple[str, list[str]]:
    if not app.patterns:
        return text, []
    patterns = app.that_may_match(text)
    if not patterns:  # nothing moves, but the text is still cut into sentences and joined
        if text.isprintable() and "  " not in text:
            return text, []  # one paragraph (no "\n": printable), its sentences one space apart
        paragraphs = (_SENTENCE_END.sub(" ", paragraph) for paragraph in text.split("\n\n"))
        return "\n\n".join(p for p in paragraphs if p), []
    kept, moved = [], []
    for paragraph in text.split("\n\n"):
        sentences = _SENTENCE_END.split(paragraph)
        about_app = [s for s in sentences if any(p.search(s) for p in patterns)]
        moved.extend(about_app)
        rest = " ".join(s for s in sentences if s not in about_app)
        if rest:
            kept.append(rest)
    return "\n\n".join(kept), moved


def _with_derived_related(entries: list[Entry]) -> list[Entry]:
    """Entries no source links anywhere get a few related terms named in their own text.

    Names are looked up by the word sequences of each text (linear in the text, so a large
    glossary loads quickly); a trailing plural "s" is tolerated.
    """
    if all(entry.related for entry in entries):  # the usual case: no name to look up
        return entries
    named = [
        (name, entry.id)
        for entry in entries
        for name in entry.names
        if len(name) >= 4 or (len(name) >= 2 and name.isupper())
    ]
    owners: dict[str, str] = {}
    for key, (_, entry_id) in zip(normalize_many([n for n, _ in named]), named, strict=True):
        owners.setdefault(key, entry_id)
    longest = min(MAX_NAME_WORDS, max((k.count(" ") + 1 for k in owners), default=1))
    out = []
    for entry in entries:
        if entry.related:
            out.append(entry)
            continue
        words = normalize(f"{entry.summary} {entry.definition}").split()
        found: list[str] = []
        for start in range(len(words)):
            for size in range(min(longest, len(words) - start), 0, -1):
                phrase = " ".join(words[start : start + size])
                target = owners.get(phrase) or owners.get(phrase.removesuffix("s"))
                if target and target != entry.id and target not in found:
                    found.append(target)
                    break
        related = found[:DERIVED_RELATED_LIMIT]
        out.append(entry.model_copy(update={"related": tuple(related)}) if related else entry)
    return out


def unique(items: Iterable[str]) -> list[str]:
    """Each item once, where it first comes (a merge's and a server term's lists)."""
    return list(dict.fromkeys(items))


def unique_folded(items: Iterable[str], key: Callable[[str], str] = compact) -> list[str]:
    """Keep the first spelling of names that differ only in case or separators (the same `key`)."""
    seen: dict[str, str] = {}
    for item in items:
        seen.setdefault(key(item), item)
    return list(seen.values())
