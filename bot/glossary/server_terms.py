"""Each server's own glossary terms: the model, its validation, caps, and the cards they make.

Data layer only (no Discord, no database). The Discord commands and storage call:

- `check_draft(draft, bundled, others, editing=...)` -> `TermCheck(term, problems)`: a moderator's
  modal (`TermDraft`) made into a `ServerTerm`, or every problem at once, each naming its field.
- `check_caps(terms)`: the per-server caps on the set a write would leave.
- `overlay_target(term, bundled)`: the bundled entry a term is the server's wording of, if any.
- `server_glossary(bundled, terms)`: the bundled glossary with the server's terms in it, one card
  per concept: an overlaying term leads its card and the bundled wording stays as another source.
- `referrers(terms, id)` / `dangling_after_removal(terms, id, bundled)`: who points at a term.
- `diff_terms(existing, incoming)`: added, changed and removed, for an import's dry run.
- `TermDraft.of(term, glossary)` fills the edit modal; `ServerTerm.revision` tells an edit made
  against a term that changed underneath it.

Problems are `TermProblem`s: the field (a key of FIELD_LABELS, the modal's labels), a message
for the moderator, and for files the entry and line. Only errors refuse; warnings inform.

The rules are `glossary-bot check`'s (`check.entry_problems`), plus the name rules moderators'
aliases follow (`name_rules`), plus what a set of server terms needs: no two terms share a name
(names meet on `keys.compact`, as search meets them), related terms resolve, the caps hold.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Callable, Container, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from pydantic import BaseModel, ConfigDict

from bot import limits
from bot.glossary.check import entry_problems, reference_problem
from bot.glossary.keys import compact, plural_variants
from bot.glossary.lookalikes import LookAlikes, entry_lookalikes, looks_like
from bot.glossary.merge import unique, unique_folded
from bot.glossary.models import (
    CATEGORIES,
    SERVER_SOURCE_KEY,
    Entry,
    Glossary,
    SourceInfo,
    SourceText,
    category_named,
    names_of,
    titled,
)
from bot.glossary.name_rules import (
    framing_refusal,
    markup_read_away,
    markup_refusal,
    name_refusal,
)
from bot.glossary.other_senses import sense_problems
from bot.glossary.slug import SLUG_PATTERN, slugify
from bot.sizes import said_sizes

MAX_TERMS = 2000  # per server; settings may pass another cap
MAX_TEXT_BYTES = 2 * 1024 * 1024  # UTF-8 text of all of a server's terms
MAX_NAME_LENGTH = limits.AUTOCOMPLETE_NAME  # an acronym or other name; the title has check's cap
# Ids travel in buttons' custom ids (at most 100 characters, with a prefix and a user id).
MAX_ID_LENGTH = 60
SERVER_SOURCE = SourceInfo(key=SERVER_SOURCE_KEY, name="this server's glossary", file="(server)")
BUNDLED_HOME = "the glossary"  # where an entry that ships with the bot is, as members are told


def home_of(entry: Entry) -> str:
    """Where `entry` is, as a member is told: "this server's glossary" for a term of the
    server's (or its wording of a bundled entry), "the glossary" for one that ships with the
    bot, which no one in the server wrote."""
    return SERVER_SOURCE.name if entry.worded_by_server else BUNDLED_HOME


# How search reads a name typed alone (a name -> the words it looks up: "the Zorb ★" -> "zorb"),
# given by the layer that may use search (`bot.search.query.read_alone`): a name read as
# another's is refused. Without it, names are compared as written only.
NameReading = Callable[[str], str]


def as_written(name: str) -> str:
    """The `NameReading` of a caller without search's: a name is read as it is written."""
    return name


# Whether search reads a name as no term at all: only a question's wording or filler ("what
# is", "pls", "the": `bot.search.query.only_framing`), given by the layer that may use search.
# Such a name is refused: "what is it" would offer the term (frame72).
NameFraming = Callable[[str], bool]


def no_framing(name: str) -> bool:
    """The `NameFraming` of a caller without search's: every name holds a term."""
    return False


# The words a moderator sees for each field (the modal's labels).
FIELD_LABELS: Mapping[str, str] = {
    "title": "Title",
    "definition": "Definition",
    "boundary": "What it is not",
    "aliases": "Other names",
    "related": "Related terms",
    "category": "Category",
    "acronym": "Acronym",
    "summary": "Summary",
    "importance": "Why it matters",
    "plain": "In plain words",
    "keywords": "Keywords",
    "reference": "Reference",
    "other_senses": "Other senses",
    "id": "Id",
    "file": "File",
    "terms": "Terms",
}
_LIST_SEPARATORS = re.compile(r"[,\n]")
# A problem is one line: a name refused for a line break or tab it holds is quoted with them
# written as a file writes them ("Zorb\r\nOne"), not broken over lines.
_GAPS_WRITTEN = str.maketrans({"\r": "\\r", "\n": "\\n", "\t": "\\t", "\v": "\\v", "\f": "\\f"})


@dataclass(frozen=True)
class TermProblem:
    """One thing wrong with a term or a file, said for the moderator who wrote it."""

    field: str  # a key of FIELD_LABELS
    message: str
    term: str | None = None  # the term's title, or its label in an imported file
    line: int | None = None  # in an imported file, where its format tells
    severity: Literal["error", "warning"] = "error"

    def __str__(self) -> str:
        where = f"line {self.line}, " if self.line else ""
        what = f"“{self.term}”, " if self.term else ""
        said = f"{where}{what}{FIELD_LABELS.get(self.field, self.field)}: {self.message}"
        return said.translate(_GAPS_WRITTEN)


class ServerTerm(BaseModel):
    """One server's own term, as stored. `related` holds ids of server terms or bundled entries."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    title: str
    definition: str
    category: str
    acronym: str | None = None
    aliases: tuple[str, ...] = ()
    summary: str | None = None
    boundary: str | None = None
    importance: str | None = None
    plain: str | None = None
    keywords: tuple[str, ...] = ()
    related: tuple[str, ...] = ()
    reference: str | None = None
    # What the term's name means outside this server's subject ("an army tank" for a raid's
    # Tank): a question leaning to one of them gets no card for it (`Entry.other_senses`).
    other_senses: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return names_of(self.title, self.acronym, self.aliases)

    @property
    def display_title(self) -> str:
        return titled(self.title, self.acronym)

    @property
    def revision(self) -> str:
        """A short hash of the whole term: an edit made against one revision can tell that the
        term changed underneath it (two moderators editing at once)."""
        return hashlib.sha256(self.model_dump_json().encode()).hexdigest()[:16]


@dataclass(frozen=True)
class TermDraft:
    """What a moderator typed: the modal's five fields and the command's options.

    `other_names` and `related` are comma- or newline-separated; related terms are named by
    title, other name or id, of this server's terms or of the bundled glossary. `other_senses`
    (the commands' option: the modal holds five inputs, all taken) is ";"-separated, as a sense
    may hold commas ("a fish tank, an aquarium").
    """

    title: str
    definition: str
    boundary: str = ""
    other_names: str = ""
    related: str = ""
    category: str | None = None
    acronym: str | None = None
    summary: str | None = None
    other_senses: str = ""

    @classmethod
    def of(cls, term: ServerTerm, glossary: Glossary) -> TermDraft:
        """The draft that fills `/term edit`'s modal; related terms by title where known."""
        related = [glossary[r].title if r in glossary else r for r in term.related]
        return cls(
            title=term.title,
            definition=term.definition,
            boundary=term.boundary or "",
            other_names=", ".join(term.aliases),
            related=", ".join(related),
            category=term.category,
            acronym=term.acronym,
            summary=term.summary,
            other_senses=SENSE_SEPARATOR.join(term.other_senses),
        )


@dataclass(frozen=True)
class TermCheck:
    """A checked draft: the term when there is no error, and every problem found."""

    term: ServerTerm | None
    problems: list[TermProblem]


@dataclass
class Candidate:
    """A term before ids and related terms are settled: from a modal or from a file's record."""

    fields: dict[str, object]  # ServerTerm fields except id and related
    related: list[str]  # names or ids as written
    label: str  # how problems name it
    line: int | None = None
    preferred_id: str | None = None  # an edited term's id, or the id a file gives it
    stored: ServerTerm | None = None  # the term as stored under that id (an edit's, an import's)


def check_draft(
    draft: TermDraft,
    bundled: Glossary,
    others: Sequence[ServerTerm],
    *,
    editing: str | None = None,
    read_as: NameReading = as_written,
    framing: NameFraming = no_framing,
) -> TermCheck:
    """Check a moderator's draft against the bundled glossary and the server's other terms.

    `editing` is the id of the term being edited (left out of `others` if present there); the
    term keeps that id unless it stops being the server's wording of the bundled entry whose id
    it had. Caps are separate: `check_caps` on the set the write would leave. `read_as`: how
    search reads a name (`NameReading`); `framing`: whether it reads one as no term
    (`NameFraming`).
    """
    rest = [t for t in others if t.id != editing]
    stored = next((t for t in others if t.id == editing), None) if editing else None
    candidate = Candidate(
        fields={
            "title": draft.title,
            "definition": draft.definition,
            "boundary": draft.boundary,
            "aliases": split_list(draft.other_names),
            "category": draft.category,
            "acronym": draft.acronym,
            "summary": draft.summary,
            "other_senses": split_senses(draft.other_senses),
        },
        related=split_list(draft.related),
        label=draft.title.strip(),
        preferred_id=editing,
        stored=stored,
    )
    terms, problems = check_candidates([candidate], bundled, rest, read_as=read_as, framing=framing)
    if stored is None or not terms:
        return TermCheck(terms[0] if terms and not _errors(problems) else None, problems)
    # What only a file gives is not in the form: kept as stored (an edit dropped it: mend72).
    term = terms[0].model_copy(update={name: getattr(stored, name) for name in _FILE_ONLY})
    kept = stored.reference
    if kept and (problem := reference_problem(kept)):
        # Stored before such were refused (review72): the edit is saved with it as it was, and
        # the moderator told, not refused for what the form cannot change.
        said = _kept_reference(problem, "the form does not hold it")
        problems = [*problems, TermProblem("reference", said, severity="warning")]
    return TermCheck(None if _errors(problems) else term, problems)


def _kept_reference(problem: str, why: str) -> str:
    """What a moderator is told of a reference URL refused now (`problem`: its
    `reference_problem`, found once) but stored before such were (review72), kept as stored
    (`why`)."""
    return (
        f"{problem}; kept as it was stored ({why}), shown without its "
        "link: a file's reference in `/term import` replaces it."
    )


# A term's fields only a file (`/term import`, `terms import`) gives: `/term edit`'s form and
# options do not hold them, so an edit keeps them as stored.
_FILE_ONLY = ("importance", "plain", "keywords", "reference")


def split_list(text: str) -> list[str]:
    """ "a, b\nc" -> ["a", "b", "c"]."""
    return [part.strip() for part in _LIST_SEPARATORS.split(text) if part.strip()]


SENSE_SEPARATOR = "; "


def split_senses(text: str) -> list[str]:
    """ "an army tank; a fish tank, an aquarium" -> ["an army tank", "a fish tank, an
    aquarium"]: other senses are ";"-separated (or a line each), as one may hold a comma."""
    return [part.strip() for part in re.split(r"[;\n]", text) if part.strip()]


def check_candidates(
    candidates: Sequence[Candidate],
    bundled: Glossary,
    others: Sequence[ServerTerm],
    *,
    default_category: str | None = None,
    replaced: Sequence[ServerTerm] = (),
    read_as: NameReading = as_written,
    framing: NameFraming = no_framing,
) -> tuple[list[ServerTerm], list[TermProblem]]:
    """The candidates as terms, and every problem: each alone, then as a set with `others`.

    Terms come back only for candidates without errors of their own; a related term naming a
    refused candidate is not reported as dangling. `replaced`: the server's terms an import
    replaces with the candidates, named when a related term is one of them it removes; a
    candidate refused only for a name stored before such names were refused
    (`_NameOwners.is_old_pair`) keeps its stored term then, with a warning, so that a re-import
    of the server's own export goes in; the set is checked with that term as stored.
    `read_as`: how search reads a name (`NameReading`); `framing`: whether it reads one as no
    term (`NameFraming`).
    """
    as_stored = {t.id: t for t in replaced}
    # An entry without an id (a Markdown heading's, a hand-written TOML's) is the stored term
    # of its title: it keeps that id wherever the file puts it (slugs taken in file order
    # swapped two like-named terms' ids on a reordered file, and their aliases with them).
    by_title = {compact(t.title): t.id for t in replaced}
    given = {c.preferred_id: c for c in candidates if c.preferred_id is not None}
    moved: list[TermProblem] = []
    settled_ids: list[Candidate] = []
    for c in candidates:
        title = compact(str(c.fields.get("title") or ""))
        stored_id = by_title.get(title) if c.preferred_id is None else None
        giver = given.get(stored_id) if stored_id is not None else None
        if giver is not None and compact(str(giver.fields.get("title") or "")) != title:
            # Its id given to another title as well: which of the two is that term is not
            # known (taking either renames one and adds or removes the other), so say it.
            moved.append(_id_given_away(c, giver, stored_id or ""))
            stored_id = None
        settled_ids.append(replace(c, preferred_id=stored_id) if stored_id else c)
    candidates = settled_ids
    candidates = [
        replace(c, stored=as_stored[c.preferred_id])
        if c.stored is None and c.preferred_id in as_stored
        else c
        for c in candidates
    ]
    # A candidate kept as stored is written as stored, not as the file has it: checked again
    # as stored, so that the rest are checked against the names it keeps (a name the file
    # moved from it to another term would otherwise be written twice). Each round turns one
    # more candidate at least, so this ends.
    while True:
        terms, problems, kept = _check_set(
            candidates, bundled, others, default_category, replaced, read_as, framing
        )
        turned = [i for i in kept if candidates[i].fields != _stored_fields(candidates[i])]
        if not turned:
            return terms, moved + problems
        for i in turned:
            candidates[i] = _as_stored(candidates[i])


def _id_given_away(candidate: Candidate, giver: Candidate, term_id: str) -> TermProblem:
    where = f" (line {giver.line})" if giver.line is not None else ""
    return TermProblem(
        "id",
        f"this server's term “{candidate.label}” has the id {term_id!r}, which the file gives to "
        f"“{giver.label}”{where}: to give that term the new title, leave “{candidate.label}” "
        f"out of the file; to keep it, take the id off “{giver.label}” (or give it another).",
        candidate.label or None,
        candidate.line,
    )


def _stored_fields(candidate: Candidate) -> dict[str, object] | None:
    stored = candidate.stored
    return None if stored is None else stored.model_dump(exclude={"id", "related"})


def _as_stored(candidate: Candidate) -> Candidate:
    """The candidate as its stored term (named and placed as in the file)."""
    assert candidate.stored is not None
    return replace(
        candidate,
        fields=_stored_fields(candidate) or {},
        related=list(candidate.stored.related),
        preferred_id=candidate.stored.id,
    )


def _check_set(
    candidates: Sequence[Candidate],
    bundled: Glossary,
    others: Sequence[ServerTerm],
    default_category: str | None,
    replaced: Sequence[ServerTerm],
    read_as: NameReading,
    framing: NameFraming,
) -> tuple[list[ServerTerm], list[TermProblem], list[int]]:
    """`check_candidates`' one pass: the terms, the problems, and which candidates (by index)
    are kept as stored."""
    problems: list[TermProblem] = []
    owners = _NameOwners(bundled, others, replaced, read_as, framing)
    ids = {t.id for t in others}  # the ids taken, as candidates get theirs
    # ...and those the file gives (or its terms keep): a slug made for another is not one.
    meant = {c.preferred_id for c in candidates if c.preferred_id}
    settled: list[tuple[Candidate, dict[str, object], Entry | None, bool]] = []
    refused: list[tuple[Candidate, dict[str, object], Entry | None]] = []
    kept_at: list[int] = []
    for at, candidate in enumerate(candidates):
        report = _Reporter(problems, candidate, keep_old=bool(replaced))
        fields = _clean(candidate.fields)
        target = _check_names(fields, owners, report)
        _fill_category(fields, target, default_category, report)
        _check_like_bundled(fields, report)
        _check_fits_form(fields, candidate.related, report)
        for message in sense_problems(_as_tuple(fields.get("other_senses"))):
            report("other_senses", message)
        taken = ids | (meant - {candidate.preferred_id})
        term_id = _assign_id(candidate.preferred_id, fields, target, bundled, taken)
        ids.add(term_id)
        if candidate.preferred_id and candidate.preferred_id != term_id:
            owners.renamed[candidate.preferred_id] = term_id  # a file's related ids mean it
        owners.claim(term_id, fields, target, report)
        fields["id"] = term_id
        if not report.failed:
            settled.append((candidate, fields, target, report.kept))
            if report.kept:
                kept_at.append(at)
        else:
            refused.append((candidate, fields, target))

    removed = {key: t.title for t in replaced for key in (t.id, *map(compact, t.names))}
    terms = []
    for candidate, fields, target, kept in settled:
        if kept and candidate.stored is not None:
            terms.append(candidate.stored)
            continue
        report = _Reporter(problems, candidate)
        own = {str(fields["id"])} | ({target.id} if target else set())
        related = _resolve_related(
            candidate.related, owners, own, removed, report, _stored_related(candidate)
        )
        if not report.failed:
            terms.append(ServerTerm.model_validate({**fields, "related": tuple(related)}))
    # A refused term's related names are checked too, so that one answer lists every problem.
    for candidate, fields, target in refused:
        own = {str(fields["id"])} | ({target.id} if target else set())
        _resolve_related(
            candidate.related,
            owners,
            own,
            removed,
            _Reporter(problems, candidate),
            _stored_related(candidate),
        )
    return terms, problems, kept_at


def _stored_related(candidate: Candidate) -> frozenset[str]:
    """The related ids the term a candidate edits or imports again was stored with."""
    return frozenset(candidate.stored.related) if candidate.stored is not None else frozenset()


def _errors(problems: Iterable[TermProblem]) -> list[TermProblem]:
    return [p for p in problems if p.severity == "error"]


@dataclass
class _Reporter:
    problems: list[TermProblem]
    candidate: Candidate
    failed: bool = False
    fields: set[str] = field(default_factory=set)  # the fields said to be wrong
    keep_old: bool = False  # an import: a term refused only for an old pair keeps its stored
    kept: bool = False  # ... and this one does

    def __call__(self, field: str, message: str) -> None:
        self.failed = True
        self.fields.add(field)
        c = self.candidate
        self.problems.append(TermProblem(field, message, c.label or None, c.line))

    def old_pair(self, field: str, refused: str, edit: str, kept: str) -> None:
        """A name refused (`refused`: what clashes) that the term was stored with before such
        names were refused: an edit is refused, saying what to rename (`edit`); an import keeps
        the stored term (`kept`), so that the server's own export imports."""
        if not self.keep_old:
            self(field, f"{refused}, so the two would open different cards. {edit}")
            return
        self.keep_stored(field, f"{refused}: {kept}")

    def keep_stored(self, field: str, message: str) -> None:
        """An import keeps the stored term, refused only for what it was stored with before
        such was refused: a warning, not an error."""
        self.kept = True
        self.warning(field, message)

    def warning(self, field: str, message: str) -> None:
        c = self.candidate
        self.problems.append(TermProblem(field, message, c.label or None, c.line, "warning"))


def _clean(fields: Mapping[str, object]) -> dict[str, object]:
    """Text stripped, empty optional fields None, names deduplicated as search would see them."""
    out: dict[str, object] = {}
    for name, value in fields.items():
        if isinstance(value, str):
            out[name] = value.strip() or (None if name not in {"title", "definition"} else "")
        elif isinstance(value, (list, tuple)):
            out[name] = tuple(unique(str(v).strip() for v in value if str(v).strip()))
        else:
            out[name] = value
    names = {compact(str(out.get("title") or "")), compact(str(out.get("acronym") or ""))}
    aliases = unique_folded(str(a) for a in _as_tuple(out.get("aliases")))
    out["aliases"] = tuple(a for a in aliases if compact(a) not in names)
    return out


def _as_tuple(value: object) -> tuple[str, ...]:
    return tuple(str(v) for v in value) if isinstance(value, (list, tuple)) else ()


def _names(fields: Mapping[str, object]) -> Iterator[tuple[str, str]]:
    """(field, name) for the title, the acronym and each other name."""
    for key in ("title", "acronym"):
        value = fields.get(key)
        if isinstance(value, str) and value:
            yield key, value
    for alias in _as_tuple(fields.get("aliases")):
        yield "aliases", alias


class _NameOwners:
    """Who holds each name key: bundled entries and the server's terms (the set being built)."""

    def __init__(
        self,
        bundled: Glossary,
        others: Sequence[ServerTerm],
        replaced: Sequence[ServerTerm] = (),
        read_as: NameReading = as_written,
        framing: NameFraming = no_framing,
    ) -> None:
        self.bundled = bundled
        self.read_as = read_as
        self.framing = framing
        self.bundled_names = bundled_names(bundled)
        self.server: dict[str, tuple[str, str]] = {}  # key -> (term id, title)
        self.ids: set[str] = set()
        self.renamed: dict[str, str] = {}  # an id as the file gave it -> the id given
        self.wordings: dict[str, tuple[str, str]] = {}  # bundled id -> (term id, title)
        self.lookalikes: LookAlikes[str] = LookAlikes()  # of the server's terms, by id
        self.titles: dict[str, str] = {}  # term id -> title
        self.names: dict[str, list[str]] = {}  # term id -> its names, as written
        # the key search reads a name as (`read_as`) -> (term id, title, the name)
        self.read_keys: dict[str, tuple[str, str, str]] = {}
        self.stored_names: dict[str, set[str]] = {}  # term id -> its name keys, as stored
        # term id -> (line, stored?) of the set's candidates: a clash with one is the file's own
        self.candidates: dict[str, tuple[int | None, bool]] = {}
        for term in (*others, *replaced):
            self.stored_names.setdefault(term.id, set()).update(map(compact, term.names))
        for term in others:
            self.names[term.id] = list(term.names)
            self.ids.add(term.id)
            self.titles[term.id] = term.title
            self.lookalikes.add(term.id, term.names)
            for name in term.names:
                self.server.setdefault(compact(name), (term.id, term.title))
                self.read_keys.setdefault(compact(read_as(name)), (term.id, term.title, name))
            target = overlay_target(term, bundled)
            if target is not None:
                self.wordings.setdefault(target.id, (term.id, term.title))

    def claim(
        self,
        term_id: str,
        fields: Mapping[str, object],
        target: Entry | None,
        report: _Reporter,
    ) -> None:
        """Take the term's names (and its bundled entry), reporting any another term holds."""
        self.ids.add(term_id)
        self.candidates.setdefault(
            term_id, (report.candidate.line, report.candidate.stored is not None)
        )
        title = str(fields.get("title"))
        if target is not None:
            holder = self.wordings.setdefault(target.id, (term_id, title))
            if holder[0] != term_id:
                report(
                    "title",
                    f"this server already words the bundled entry “{target.title}” in the "
                    f"term “{holder[1]}”: edit that one instead.",
                )
        for field_name, name in _names(fields):
            key = compact(name)
            held = self.server.setdefault(key, (term_id, str(fields.get("title"))))
            if key and held[0] != term_id:
                report(field_name, f"“{name}” is already a name of {self.term(*held)}.")
            elif (
                key
                and not self._refuse_other_number(field_name, name, term_id, report)
                and not self._refuse_read_as(field_name, name, term_id, target, report)
            ):
                self._refuse_lookalike(field_name, name, term_id, target, report)
        self.titles.setdefault(term_id, title)
        self.names.setdefault(term_id, []).extend(name for _, name in _names(fields))
        self.lookalikes.add(term_id, (name for _, name in _names(fields)))

    def _refuse_other_number(
        self, field_name: str, name: str, term_id: str, report: _Reporter
    ) -> bool:
        """As `_refuse_other_number` (below) for the bundled names, among the server's own
        terms: "Zorb Engines" beside a term "Zorb Engine" would be a second card search reads
        as the first. The term holding the name may have its other number."""
        for key in plural_variants(compact(name)):
            held = self.server.get(key)
            if held is None or held[0] == term_id:
                continue
            owner = next((n for n in self.names.get(held[0], ()) if compact(n) == key), held[1])
            if self.is_old_pair(report.candidate, name, held[0], key):
                report.old_pair(
                    field_name,
                    f"“{name}” is read by search as “{owner}”, a name of this server's term "
                    f"“{held[1]}”",
                    "The two were stored before such pairs were refused: rename this term, or "
                    f"“{held[1]}”, so that search reads them apart.",
                    "kept as stored (the two were stored before such pairs were refused); rename "
                    "one with /term edit so that search reads them apart.",
                )
                return True
            report(
                field_name,
                f"“{name}” is read by search as “{owner}”, a name of {self.term(*held)}, so "
                "the two would open different cards: add it to that term, or "
                "choose a name search does not read as another term's.",
            )
            return True
        return False

    def _refuse_read_as(
        self, field_name: str, name: str, term_id: str, target: Entry | None, report: _Reporter
    ) -> bool:
        """A name search reads as another name, leaving out what is around it ("Zorb Engine ★",
        "the Zorb Engine", "what is Zorb Engine": `read_as`), is refused where that name is
        a bundled entry's or another of the server's terms', as `/alias add` refuses it: typed,
        it would open that card, never this term's. In either order: a name that an earlier
        term's name is read as is refused too. Pairs stored before this rule are kept, as
        `_refuse_other_number` keeps its own."""
        key = compact(name)
        core = self.read_as(name)
        read = compact(core)
        self.read_keys.setdefault(read, (term_id, report.candidate.label or name, name))
        holder: str | None = None  # the server term whose name it clashes with (None: bundled)
        held_key = read  # the holder's name, as a key
        refused = ""
        owner = self.bundled_names.get(read)
        earlier = self.read_keys.get(key)
        if read and read != key and read in self.server and self.server[read][0] != term_id:
            holder = self.server[read][0]
            refused = (
                f"“{name}” is read by search as “{core}”, a name of {self.term(*self.server[read])}"
            )
        elif read and read != key and owner is not None and owner != target:
            refused = (
                f"“{name}” is read by search as “{core}”, the bundled glossary's name for "
                f"“{owner.title}”"
            )
        elif earlier and earlier[0] != term_id and compact(earlier[2]) != key:
            holder, held_key = earlier[0], compact(earlier[2])
            refused = (
                f"search reads “{earlier[2]}”, a name of {self.term(earlier[0], earlier[1])}, "
                f"as “{name}”"
            )
        if not refused:
            return False
        if self.is_old_pair(report.candidate, name, holder, held_key):
            report.old_pair(
                field_name,
                refused,
                "This term was stored with it before such names were refused: rename it.",
                "kept as stored (stored before such names were refused); rename it with /term "
                "edit so that search reads them apart.",
            )
            return True
        report(
            field_name,
            f"{refused}, so the two would open different cards: choose a name search does not "
            "read as another's.",
        )
        return True

    def term(self, term_id: str, title: str) -> str:
        """How a problem names the term holding a name: a file's own term by its line (two
        entries of one file titled alike are not a clash with the server's glossary)."""
        if term_id not in self.candidates:
            return f"this server's term “{title}”"
        line, stored = self.candidates[term_id]
        where = f"line {line} of this file" if line is not None else "this file"
        return f"this server's term “{title}” ({where})" if stored else f"“{title}” on {where}"

    def is_old_pair(self, candidate: Candidate, name: str, holder: str | None, key: str) -> bool:
        """Whether the candidate was stored with `name` and `holder` (a server term's id; None:
        a bundled entry, perhaps new) with its name `key`: a pair stored before it was refused
        (review29, left31), not one this change makes."""
        stored = candidate.stored
        if stored is None or compact(name) not in map(compact, stored.names):
            return False
        return holder is None or key in self.stored_names.get(holder, ())

    def _refuse_lookalike(
        self, field_name: str, name: str, term_id: str, target: Entry | None, report: _Reporter
    ) -> None:
        """A name may not look like another entry's: the bundled glossary's or this server's."""
        own = [target] if target is not None else []
        bundled = entry_lookalikes(self.bundled, self.bundled).like(name, apart_from=own)
        if bundled is not None:
            report(field_name, looks_like(name, bundled[1], bundled[0].display_title))
            return
        server = self.lookalikes.like(name, apart_from=[term_id])
        if server is not None:
            report(field_name, looks_like(name, server[1], self.titles[server[0]]))

    def resolve(self, text: str) -> str | None:
        """The id a related term's name or id points at: a server term's first."""
        key = compact(text)
        if text in self.renamed:
            return self.renamed[text]
        if text in self.bundled or text in self.ids:
            return text
        held = self._holder(key)
        if held is not None:
            return held
        # Another number of one name ("kv caches"): search reads it as that name, so the form
        # and a file may too; of two names ("zorbes": Zorb, Zorbe) which is not known.
        meant = {self._holder(variant) for variant in plural_variants(key)} - {None}
        return meant.pop() if len(meant) == 1 else None

    def _holder(self, key: str) -> str | None:
        """The id of the term or entry with the name `key`: a server term's first."""
        if key in self.server:
            return self.server[key][0]
        owner = self.bundled_names.get(key)
        return owner.id if owner else None


@functools.lru_cache(maxsize=4)
def bundled_names(bundled: Glossary) -> dict[str, Entry]:
    owners: dict[str, Entry] = {}
    for entry in bundled:
        for name in entry.names:
            owners.setdefault(compact(name), entry)
    return owners


def _check_names(fields: dict[str, object], owners: _NameOwners, report: _Reporter) -> Entry | None:
    """Refuse unsafe names; return the bundled entry the names are of (at most one may be)."""
    target: Entry | None = None
    unowned: list[tuple[str, str]] = []  # names of no bundled entry
    for field_name, name in _names(fields):
        refusal = name_refusal(name, "A name")
        if refusal:
            report(field_name, f"“{name}”: {refusal}")
            continue
        if not compact(name):
            report(field_name, f"“{name}” is empty once punctuation and spacing are removed.")
            continue
        if owners.framing(name):
            _refuse_read_away(field_name, name, framing_refusal(name, "a name"), owners, report)
            continue
        if (read := markup_read_away(name)) is not None:
            _refuse_read_away(
                field_name, name, markup_refusal(name, read, "a name"), owners, report
            )
            continue
        if field_name != "title" and len(name) > MAX_NAME_LENGTH:
            report(field_name, f"“{name[:40]}…” is longer than {MAX_NAME_LENGTH} characters.")
        owner = owners.bundled_names.get(compact(name))
        if owner is None:
            unowned.append((field_name, name))
            continue
        if target is None:
            target = owner
        elif owner.id != target.id:
            report(
                field_name,
                f"“{name}” is the bundled glossary's name for “{owner.title}”, but this term "
                f"is already this server's wording of “{target.title}”: one concept per term.",
            )
    for field_name, name in unowned:
        _refuse_other_number(field_name, name, target, owners, report)
    return target


def _refuse_read_away(
    field_name: str, name: str, refused: str, owners: _NameOwners, report: _Reporter
) -> None:
    """A name search does not read as it is written is refused (`refused` says why), as `/alias
    add` refuses such an alias: one only a question's wording ("what is", "pls": `NameFraming`),
    or one starting with markup search reads away ("# zorb": `markup_read_away`). An import
    keeps a term stored with it before (frame72), so that the server's own export imports
    back."""
    if report.keep_old and owners.is_old_pair(report.candidate, name, None, ""):
        report.keep_stored(
            field_name, f"{refused} Kept as stored (stored before such names were refused)."
        )
    else:
        report(field_name, refused)


def _refuse_other_number(
    field_name: str, name: str, target: Entry | None, owners: _NameOwners, report: _Reporter
) -> None:
    """A name that is the other number of a bundled entry's name ("KV Caches" beside KV Cache):
    search reads the two alike (`plural_variants`, its rule), so a term of its own under it
    would open one card for one spelling and the entry's for the other; `/alias add` refuses
    it, and `check` warns of it in the bundled data. The term wording that entry may have it."""
    for key in plural_variants(compact(name)):
        owner = owners.bundled_names.get(key)
        if owner is None or (target is not None and owner.id == target.id):
            continue
        its_name = next(n for n in owner.names if compact(n) == key)
        if owners.is_old_pair(report.candidate, name, None, key):
            report.old_pair(
                field_name,
                f"“{name}” is read by search as “{its_name}”, the bundled glossary's name for "
                f"“{owner.title}”",
                "This term was stored with it before such names were refused: rename it (or "
                f"name it “{its_name}” to word that entry here).",
                "kept as stored (stored before such names were refused); rename it with /term "
                f"edit (or name it “{its_name}” to word that entry here).",
            )
            return
        report(
            field_name,
            f"“{name}” is read by search as “{its_name}”, the bundled glossary's name for "
            f"“{owner.title}”, so the two would open different cards: name the term "
            f"“{its_name}” to word that entry here, or choose a name search does not read as "
            "another entry's.",
        )
        return


# A new term without a category: the form's save offers a menu of them; an import says how
# its file or its category option gives one (interchange.parse_import).
NO_CATEGORY = f"choose a category (one of: {', '.join(CATEGORIES)})"


def _fill_category(
    fields: dict[str, object], target: Entry | None, default: str | None, report: _Reporter
) -> None:
    """A category as typed is matched without case; none given: the overlaid entry's, or the
    default (an import's option), else check's "no category" problem."""
    given = fields.get("category")
    if isinstance(given, str):
        fields["category"] = category_named(given) or given
    elif target is not None:
        fields["category"] = target.category
    elif default:
        fields["category"] = default
    else:
        report("category", NO_CATEGORY)
        fields["category"] = CATEGORIES[0]  # the other checks still run


# The texts `/term edit`'s form holds, whose caps (limits.TERM_FORM) are checked as the form's.
_FORM_TEXTS = ("title", "definition", "boundary")


def _check_like_bundled(fields: Mapping[str, object], report: _Reporter) -> None:
    """`glossary-bot check`'s rules on one entry, on the entry this term would be."""
    probe = _entry_of(fields, "probe", ())
    # The form's caps (no larger than the card's) are said by _check_fits_form, with the count.
    for field_name, message in entry_problems(probe, capped=_FORM_TEXTS):
        stored = report.candidate.stored
        reference = fields.get("reference")
        if (
            field_name == "reference"
            and report.keep_old
            and isinstance(reference, str)
            and stored is not None
            and reference == stored.reference
        ):
            # Stored before such were refused: the server's own export imports back, as
            # `/term edit` saves the term with it.
            report.warning(field_name, _kept_reference(message, "before such were refused"))
            continue
        report(field_name, message)


def _check_fits_form(
    fields: Mapping[str, object], related: Sequence[str], report: _Reporter
) -> None:
    """No more in a field than `/term edit`'s form holds (limits.TERM_FORM): a term opens in it
    whole, never cut short, however it was written."""
    texts = {
        **{key: str(fields.get(key) or "") for key in _FORM_TEXTS},
        "aliases": ", ".join(_as_tuple(fields.get("aliases"))),
        "related": ", ".join(related),
    }
    for key, text in texts.items():
        most = limits.TERM_FORM["other_names" if key == "aliases" else key]
        if len(text) > most:  # said beside any other problem of the field: all at once
            report(
                key,
                f"longer than {most:,} characters ({len(text):,}): more than `/term edit`'s form holds",
            )


def _assign_id(
    preferred: str | None,
    fields: Mapping[str, object],
    target: Entry | None,
    bundled: Glossary,
    taken: set[str],
) -> str:
    """A stable slug: an edited term keeps its id; a term that is the server's wording of a
    bundled entry gets that entry's id when it is free. No id of a bundled entry it is not."""

    def usable(candidate: str | None) -> bool:
        return (
            bool(candidate)
            and SLUG_PATTERN.fullmatch(candidate or "") is not None
            and (
                len(candidate or "") <= MAX_ID_LENGTH
                or (target is not None and candidate == target.id)
            )
            and candidate not in taken
            and (candidate not in bundled or (target is not None and candidate == target.id))
        )

    for choice in (preferred, target.id if target else None):
        if choice and usable(choice):
            return choice
    title = str(fields.get("title") or "")
    base = slugify(title)[: MAX_ID_LENGTH - 6].rstrip("-")  # room for "-2" and on
    base = base or "term-" + hashlib.sha256(compact(title).encode()).hexdigest()[:8]
    if usable(base):
        return base
    n = 2
    while not usable(f"{base}-{n}"):
        n += 1
    return f"{base}-{n}"


def _resolve_related(
    names: Sequence[str],
    owners: _NameOwners,
    own: set[str],
    removed: Mapping[str, str],
    report: _Reporter,
    stored: Container[str] = frozenset(),
) -> list[str]:
    """The ids `names` relate to; each that names nothing is refused, except a related id the
    term was `stored` with whose entry the glossary no longer has (the maintainers removed it,
    or a folder left GLOSSARY_PATHS): `/term edit`'s form holds it as its id, and the
    server's own earlier export names it, so it is left out with a note, as `/term export`
    leaves it out (outsider76: an edit of the definition alone was refused for it)."""
    resolved: list[str] = []
    missing: list[str] = []
    dropped: list[str] = []
    for name in names:
        target = owners.resolve(name)
        gone = (removed.get(name) or removed.get(compact(name))) if target is None else None
        if target is None and gone is None and name in stored:
            dropped.append(name)
        elif gone is not None:
            # "No term is called" is true only once the import is done: say why.
            report(
                "related",
                f"“{name}” is a term of this server that this import removes (it is not in the "
                f"file): add “{gone}” to the file to keep it, or leave it out of Related terms.",
            )
        elif target is None:
            missing.append(name)
        elif target in own:
            report("related", f"“{name}” is this term itself.")
        elif target not in resolved:
            resolved.append(target)
    if missing:
        listed = ", ".join(f"“{m}”" for m in missing)
        report("related", f"no term of this server or the bundled glossary is called {listed}.")
    if dropped:
        listed = ", ".join(f"“{d}”" for d in dropped)
        report.warning(
            "related",
            f"left out {listed}: {'an entry' if len(dropped) == 1 else 'entries'} no longer in "
            "the glossary (removed from the bundled data or the folders it is served from).",
        )
    return resolved


def text_size(term: ServerTerm) -> int:
    """The UTF-8 bytes of a term's text, as the per-server text cap counts them: a list (other
    names, related ids, keywords) as the form lists it, ", " between its items. The separators
    count because an export writes quotes and a separator for every item: counted by the names'
    bytes alone, 2-letter keywords exported to three times their size, past what an import
    takes (`interchange.import_cap`)."""
    total = 0
    for value in term.model_dump().values():
        if isinstance(value, (list, tuple)):
            value = ", ".join(value)
        if isinstance(value, str):
            total += len(value.encode("utf-8", "surrogatepass"))
    return total


def check_caps(
    terms: Sequence[ServerTerm],
    *,
    max_terms: int = MAX_TERMS,
    max_text_bytes: int = MAX_TEXT_BYTES,
    before: Sequence[ServerTerm] | None = None,
) -> list[TermProblem]:
    """Problems if the set of terms a write would leave is over a cap (check before writing).
    `before`, the server's terms now: a server already over a cap (the cap lowered, or text
    stored before lists counted their separators) may still be written as long as the write
    takes it no further past it, so its moderators can mend and trim it."""
    problems = []
    grew = before is None or len(terms) > len(before)
    if len(terms) > max_terms and grew:
        said = f"a server can have at most {max_terms:,} terms ({len(terms):,})."
        if before is not None and len(before) > max_terms:
            said += past_it_already(f"{len(before):,} terms")
        problems.append(TermProblem("terms", said))
    size = sum(text_size(t) for t in terms)
    held = None if before is None else sum(text_size(t) for t in before)
    if size > max_text_bytes and (held is None or size > held):
        cap, now, held_said = said_sizes(max_text_bytes, size, size if held is None else held)
        if now.endswith(" bytes"):  # rounded alike ("1 KiB ... (1 KiB with this change)")
            now += f" with this change: {size - max_text_bytes:,} too many"
        else:
            now += " with this change"
        said = f"a server's terms can hold at most {cap} of text ({now})."
        if held is not None and held > max_text_bytes:
            said += past_it_already(held_said)
        problems.append(TermProblem("terms", said))
    return problems


def past_it_already(held: str) -> str:
    """Said after a cap to a moderator of a server already past it (lowered, or a list's ", "
    counted since outsider51), by a change or an import: what is still saved."""
    return (
        f" This server is past it already ({held}): a change that keeps or lowers that is "
        "saved, one that adds to it is not."
    )


def overlay_target(term: ServerTerm, bundled: Glossary) -> Entry | None:
    """The bundled entry `term` is the server's wording of: the first of its names (title,
    acronym, other names) that is a bundled entry's name or alias. Validation keeps a term to
    one such entry."""
    names = bundled_names(bundled)
    for name in term.names:
        owner = names.get(compact(name))
        if owner is not None:
            return owner
    return None


def entry_taking_id(term: ServerTerm, bundled: Glossary) -> Entry | None:
    """The bundled entry of another concept that has `term`'s id (the maintainers added it
    after the term): in the term's server that id must open the entry, so the term is renamed."""
    entry = bundled.get(term.id)
    if entry is None or getattr(overlay_target(term, bundled), "id", None) == term.id:
        return None
    return entry


def free_id(term: ServerTerm, bundled: Glossary, server_ids: set[str]) -> str:
    """An id for `term` as `/term add` would give it now: free of every bundled and server id."""
    fields = {"title": term.title}
    return _assign_id(None, fields, overlay_target(term, bundled), bundled, server_ids)


def referrers(terms: Iterable[ServerTerm], term_id: str) -> list[ServerTerm]:
    """The terms whose related terms name `term_id`."""
    return [t for t in terms if term_id in t.related]


def dangling_after_removal(
    terms: Sequence[ServerTerm], term_id: str, bundled: Glossary
) -> list[ServerTerm]:
    """The terms a removal of `term_id` would leave pointing at nothing (a term with a bundled
    entry's id leaves that entry behind, so nothing dangles)."""
    if term_id in bundled:
        return []
    return [t for t in referrers(terms, term_id) if t.id != term_id]


def server_glossary(
    bundled: Glossary, terms: Sequence[ServerTerm], *, source: SourceInfo = SERVER_SOURCE
) -> Glossary:
    """The glossary a server sees: its terms added, and each term that is its wording of a
    bundled entry leading that entry's card (same id), the bundled wording kept as sources.

    `source` names the server's wording on cards ("As the ... puts it" for the other sources).
    """
    targets = {t.id: overlay_target(t, bundled) for t in terms}
    card_id = {tid: (target.id if target else tid) for tid, target in targets.items()}
    overlays: dict[str, Entry] = {}
    added: list[Entry] = []
    for term in terms:
        related = tuple(unique(card_id.get(r, r) for r in term.related))
        target = targets[term.id]
        if target is None:
            added.append(_entry_of(term.model_dump(), term.id, related, source.key))
        else:
            overlays[target.id] = overlay_entry(term, target, related, source.key)
    entries = tuple(overlays.get(e.id, e) for e in bundled) + tuple(added)
    return Glossary(entries, (*bundled.sources, source))


def overlay_entry(
    term: ServerTerm, bundled: Entry, related: Sequence[str], source_key: str = SERVER_SOURCE_KEY
) -> Entry:
    """One card for one concept: the server's text leads and its fields are the card's; the
    bundled entry's wordings follow as other sources, and its names and keywords stay search's."""
    own = _entry_of(term.model_dump(), bundled.id, (), source_key)
    names = {compact(own.title), compact(own.acronym or bundled.acronym or "")}
    aliases = unique_folded(n for n in (*own.names, *bundled.names) if compact(n) not in names)
    # From the bundled entry, so what only it has (match terms, notes, anything added to Entry
    # later) stays; the server's fields lead.
    return bundled.model_copy(
        update={
            "title": own.title,
            "acronym": own.acronym or bundled.acronym,
            "aliases": tuple(aliases),
            "category": own.category,
            "summary": own.summary,
            "definition": own.definition,
            # The server's own, as its related terms: the entry's may be about another concept
            # that shares the word (a raid's Checkpoint given "a saved copy of the model").
            "boundary": own.boundary,
            "importance": own.importance,
            "plain": own.plain,
            "keywords": tuple(unique((*own.keywords, *bundled.keywords))),
            "related": tuple(r for r in unique(related) if r != bundled.id),
            "reference": own.reference,
            # the server's senses of its word, and the glossary's of the entry's
            "other_senses": tuple(unique((*own.other_senses, *bundled.other_senses))),
            "sources": (*own.sources, *bundled.sources),
        }
    )


def entry_probe(fields: Mapping[str, object]) -> Entry:
    """The entry `fields` (a record's values by field name) would be, for `check`'s rules
    alone (`entry_problems`): a data file's entry refused for another field, say."""
    entry_id = fields.get("id")
    return _entry_of(fields, entry_id if isinstance(entry_id, str) and entry_id else "probe", ())


def _entry_of(
    fields: Mapping[str, object],
    entry_id: str,
    related: Sequence[str],
    source_key: str = SERVER_SOURCE_KEY,
) -> Entry:
    def text(name: str) -> str | None:
        value = fields.get(name)
        return value if isinstance(value, str) and value else None

    title = text("title") or ""
    definition = text("definition") or ""
    return Entry(
        id=entry_id,
        title=title,
        acronym=text("acronym"),
        aliases=_as_tuple(fields.get("aliases")),
        category=text("category") or "",
        summary=text("summary") or "",
        definition=definition,
        boundary=text("boundary"),
        importance=text("importance"),
        plain=text("plain"),
        keywords=_as_tuple(fields.get("keywords")),
        related=tuple(related),
        reference=text("reference"),
        other_senses=_as_tuple(fields.get("other_senses")),
        sources=(
            SourceText(
                source=source_key,
                local_id=entry_id,
                title=title,
                summary=text("summary"),
                definition=definition,
                boundary=text("boundary"),
                importance=text("importance"),
                plain=text("plain"),
            ),
        ),
    )


@dataclass(frozen=True)
class TermDiff:
    """What replacing a server's terms with others would do, by id."""

    added: list[ServerTerm] = field(default_factory=list)
    changed: list[tuple[ServerTerm, ServerTerm]] = field(default_factory=list)  # (before, after)
    removed: list[ServerTerm] = field(default_factory=list)


def diff_terms(existing: Sequence[ServerTerm], incoming: Sequence[ServerTerm]) -> TermDiff:
    before = {t.id: t for t in existing}
    after = {t.id: t for t in incoming}
    return TermDiff(
        added=[t for tid, t in after.items() if tid not in before],
        changed=[
            (before[tid], t) for tid, t in after.items() if tid in before and before[tid] != t
        ],
        removed=[t for tid, t in before.items() if tid not in after],
    )
