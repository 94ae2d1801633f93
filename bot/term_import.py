"""Importing a file of terms into a server, for `/term import` and `glossary-bot terms import`:
read and check the file (off the event loop: parsing is CPU-bound), then replace the server's
terms with it in one transaction, or say every problem and write nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from bot.aliases import AliasClashes
from bot.glossary import Glossary
from bot.glossary.interchange import (
    DISCORD_CATEGORY_OPTION,
    MAX_IMPORT_BYTES,
    import_cap,
    parse_import,
)
from bot.glossary.keys import compact
from bot.glossary.problems import reading_order
from bot.glossary.server_terms import (
    ServerTerm,
    TermDiff,
    TermProblem,
    check_caps,
    diff_terms,
    overlay_target,
    text_size,
)
from bot.search.query import only_framing, read_alone  # as the file's names will be searched
from bot.sizes import said_size, said_sizes
from bot.storage import Store
from bot.term_storage import TermChange, change_terms, orphaned_aliases, read_terms

MAX_LISTED = 15  # problems or terms named in a Discord answer; the rest are counted
REPORT_LISTED = 10_000  # in a whole report (a terminal's, the file a Discord answer attaches)


def at_most(cap: int) -> str:
    """The import cap in words ("an import is at most 1 MiB", "... 4.98 MiB")."""
    return f"an import is at most {said_size(cap)}"


def too_big(name: str, size: int, cap: int = MAX_IMPORT_BYTES) -> str | None:
    """Why a file of `size` bytes is refused before it is read, if it is (`cap`: `import_cap`
    of the server's caps), both sizes as `said_sizes` says them (in bytes where they would read
    alike)."""
    if size <= cap:
        return None
    size_said, cap_said = said_sizes(size, cap)
    return f"{name} is {size_said}; an import is at most {cap_said}"


def held_import_cap(stored: Sequence[ServerTerm], caps: tuple[int, int]) -> int:
    """The largest file an import into a server holding `stored` takes: room for an export at
    its caps or of what it holds, if more (a cap lowered under it: its own export imports back,
    no further past the cap, as `check_caps` takes it)."""
    return import_cap(max(caps[0], len(stored)), max(caps[1], sum(map(text_size, stored))))


async def server_import_cap(store: Store, scope: int, caps: tuple[int, int]) -> int:
    """`held_import_cap` of the server's terms as stored now (a read)."""
    return held_import_cap(await read_terms(store, scope), caps)


@dataclass(frozen=True)
class ImportOutcome:
    problems: list[TermProblem]  # errors refuse the whole file; warnings inform
    diff: TermDiff | None  # what was (or, on a dry run, would be) changed; None when refused
    applied: bool
    dropped_aliases: tuple[str, ...] = ()  # aliases of removed terms, removed with them
    # (term, bundled entry) titles for the added or changed terms that word a bundled entry:
    # its card leads with the server's text from then on, which the moderator should hear.
    worded: tuple[tuple[str, str], ...] = ()

    @property
    def written(self) -> list[ServerTerm]:
        """The terms the import added or changed (none unless applied)."""
        if self.diff is None or not self.applied:
            return []
        return [*self.diff.added, *(after for _, after in self.diff.changed)]

    @property
    def errors(self) -> list[TermProblem]:
        return self._listed("error")

    @property
    def warnings(self) -> list[TermProblem]:
        return self._listed("warning")

    def _listed(self, severity: str) -> list[TermProblem]:
        """The problems of `severity`, as the file reads (`reading_order`)."""
        found = (p for p in self.problems if p.severity == severity)
        return reading_order(found, kind=lambda problem: problem.field)


async def import_terms(
    store: Store,
    scope: int,
    data: bytes,
    filename: str,
    bundled: Glossary,
    *,
    actor_id: int,
    caps: tuple[int, int],
    dry_run: bool,
    default_category: str | None = None,
    category_option: str = DISCORD_CATEGORY_OPTION,
) -> ImportOutcome:
    # Read first so a related term the file leaves out can be named as one the import removes.
    stored = await read_terms(store, scope)
    incoming, problems = await asyncio.to_thread(
        parse_import,
        data,
        filename,
        bundled,
        default_category=default_category,
        max_terms=caps[0],
        max_bytes=held_import_cap(stored, caps),
        replaced=stored,
        held=len(stored),  # past a lowered cap, its own export is no further past it
        read_as=read_alone,
        framing=only_framing,
        category_option=category_option,
    )
    if any(p.severity == "error" for p in problems):
        return ImportOutcome(problems, None, applied=False)
    over = check_caps(incoming, max_terms=caps[0], max_text_bytes=caps[1], before=stored)
    if over:
        return ImportOutcome(problems + over, None, applied=False)
    # Over a cap, but no further than the server is (its own export imported back): checked
    # again against its terms in the write, which another change may have trimmed meanwhile.
    past = bool(check_caps(incoming, max_terms=caps[0], max_text_bytes=caps[1]))

    def plan(
        current: list[ServerTerm], aliases: Mapping[str, str]
    ) -> tuple[TermChange | None, ImportOutcome]:
        if past and (
            over := check_caps(incoming, max_terms=caps[0], max_text_bytes=caps[1], before=current)
        ):
            return None, ImportOutcome(problems + over, None, applied=False)
        diff = diff_terms(current, incoming)
        changed = (*diff.added, *(after for _, after in diff.changed))
        clashing = AliasClashes(aliases, bundled, current)  # once, not once a term
        clashes = [p for term in changed for p in clashing.of(term)]
        if clashes:
            return None, ImportOutcome(problems + clashes, None, applied=False)
        removed = tuple(t.id for t in diff.removed)
        dropped = orphaned_aliases(aliases, removed, kept=[i for i in removed if i in bundled])
        targets = ((term, overlay_target(term, bundled)) for term in changed)
        worded = tuple((t.title, e.title) for t, e in targets if e is not None)
        outcome = ImportOutcome(
            problems, diff, applied=not dry_run, dropped_aliases=dropped, worded=worded
        )
        if dry_run:
            return None, outcome
        return TermChange(put=changed, remove=removed, drop_aliases=dropped), outcome

    return await change_terms(store, scope, plan, actor_id, action="term_import")


def describe(
    outcome: ImportOutcome,
    *,
    limit: int = MAX_LISTED,
    one_a_line: bool = False,
    name: Callable[[str], str] = str,
    problem: Callable[[TermProblem], str] = str,
) -> str:
    """The outcome in plain text: every problem (or the first `limit`), or what changed; with
    `one_a_line` (a terminal's, where 2,000 titles on one line cannot be read) each name on a
    line of its own under its count. `name` and `problem` show a title (or alias) and a problem
    where they go (Discord's: as typed, no Markdown)."""
    if outcome.diff is None:
        errors = outcome.errors
        lines = [f"Nothing was imported: {len(errors):,} problem{_s(errors)} in the file."]
        lines += [f"• {problem(p)}" for p in errors[:limit]]
        if len(errors) > limit:
            lines.append(f"… and {len(errors) - limit:,} more.")
        return "\n".join(lines)
    diff = outcome.diff
    replaced = _replaced(diff)
    added = [t for t in diff.added if t.id not in {new.id for _, new in replaced}]
    removed = [t for t in diff.removed if t.id not in {old.id for old, _ in replaced}]
    head = "Imported" if outcome.applied else "Dry run, nothing written. Would import"
    also = f", {len(replaced):,} replaced under another id" if replaced else ""
    counts = f"{len(added):,} added, {len(diff.changed):,} changed, {len(removed):,} removed{also}"
    lines = [f"{head}: {counts}."]
    if outcome.applied and not (diff.added or diff.changed or diff.removed):
        lines = [f"Nothing changed: the file holds this server's terms as they are ({counts})."]
    for label, terms in (
        ("Added", added),
        ("Changed", diff.changed),
        ("Removed", removed),
    ):
        if terms:
            lines += _named(label, [_title(t, name) for t in terms], limit, one_a_line)
    if replaced:
        names = [
            f"{name(new.title)}  [{old.id} → {new.id}]" if one_a_line else name(new.title)
            for old, new in replaced
        ]
        lines += _named("Replaced by the file's term of the same title", names, limit, one_a_line)
    if outcome.worded:
        pairs = [f"{name(term)} → {name(entry)}" for term, entry in outcome.worded]
        label = "Wording bundled entries (their cards lead with this server's text)"
        lines += _named(label, pairs, limit, one_a_line)
    if outcome.dropped_aliases:
        gone = "Aliases removed with them" if outcome.applied else "Aliases that would go with them"
        lines += _named(gone, [name(a) for a in outcome.dropped_aliases], limit, one_a_line)
    warnings = outcome.warnings
    lines += [f"Note: {problem(p)}" for p in warnings[:limit]]
    return "\n".join(lines)


def _title(
    term: ServerTerm | tuple[ServerTerm, ServerTerm], name: Callable[[str], str] = str
) -> str:
    """A term's title; a changed one's with its old title where that changed (a file may
    retitle a term by its id: "Changed: Blorp" beside "Removed: Blorp" was two terms)."""
    if isinstance(term, ServerTerm):
        return name(term.title)
    before, after = term
    if compact(before.title) == compact(after.title):
        return name(after.title)
    return f"{name(after.title)} (was {name(before.title)})"


def _replaced(diff: TermDiff) -> list[tuple[ServerTerm, ServerTerm]]:
    """(the server's term, the file's) for a term removed and one added under the same title:
    a term removed and added again gets a new id, so an export from before that imports as
    both. Read as one replacing the other (titles compared as search meets them)."""
    removed = {compact(t.title): t for t in diff.removed}
    pairs = [(removed.get(compact(t.title)), t) for t in diff.added]
    return [(old, new) for old, new in pairs if old is not None]


def _named(label: str, names: Sequence[str], limit: int, one_a_line: bool) -> list[str]:
    if one_a_line:
        return [f"{label} ({len(names):,}):"] + [f"  {name}" for name in names]
    return [f"{label}: {_listed(names, limit)}"]


def _listed(names: Sequence[str], limit: int) -> str:
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit:,} more" if len(names) > limit else "")


def _s(items: Sequence[object]) -> str:
    return "" if len(items) == 1 else "s"
