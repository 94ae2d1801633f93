"""A server's own terms to and from the store: the store keeps each as an id and JSON, and knows
nothing of the glossary; the Discord layer and the command line read and write `ServerTerm`s
through these."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from pydantic import ValidationError

from bot.glossary import Glossary
from bot.glossary.keys import compact
from bot.glossary.lookalikes import letters_alike
from bot.glossary.server_terms import (
    NameReading,
    ServerTerm,
    as_written,
    entry_taking_id,
    free_id,
)
from bot.storage import (
    MAX_OPEN_SUGGESTIONS,
    OPERATOR_ACTOR,
    StorageError,
    Store,
    StoredChange,
    StoredDraft,
    StoredRename,
    StoredTerm,
    Suggestion,
)

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class TermChange:
    """A write of a server's terms: these put (added or replaced, by id), those ids removed,
    and the aliases with these keys removed with them (`orphaned_aliases`)."""

    put: tuple[ServerTerm, ...] = ()
    remove: tuple[str, ...] = ()
    drop_aliases: tuple[str, ...] = ()
    accepts: int | None = None  # the suggestion `put[0]` accepts (`Store.change_terms`)


# The server's terms and its aliases (key -> entry id), as they are inside the write.
Plan = Callable[[list[ServerTerm], Mapping[str, str]], tuple[TermChange | None, T]]


def parse_terms(stored: list[StoredTerm]) -> list[ServerTerm]:
    return [ServerTerm.model_validate_json(row.body) for row in stored]


def parse_readable(
    stored: Iterable[tuple[int, StoredTerm]],
) -> tuple[list[ServerTerm], list[tuple[int, str, str]]]:
    """(server, stored term) rows parsed: the terms that parse, and (server, id, why) for each
    that does not (a hand edit, a damaged copy), for a report that names it and goes on."""
    terms: list[ServerTerm] = []
    unreadable: list[tuple[int, str, str]] = []
    for scope, row in stored:
        try:
            terms.append(ServerTerm.model_validate_json(row.body))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            why = f"{where}: {first['msg']}" if where else first["msg"]  # "[]": no field
            unreadable.append(
                (scope, row.id, "not valid JSON" if first["type"] == "json_invalid" else why)
            )
    return terms, unreadable


async def read_terms(store: Store, scope: int) -> list[ServerTerm]:
    return parse_terms(await store.terms(scope))


async def change_terms(
    store: Store,
    scope: int,
    plan: Plan[T],
    actor_id: int,
    *,
    action: str | None = None,
    draft: Callable[[T], StoredDraft] | None = None,
) -> T:
    """`Store.change_terms` with terms: `plan` gets the server's terms and aliases as they are,
    inside the write's transaction, and returns the change (None: nothing) and what to answer;
    `draft`, of that answer, the form's draft to keep in the same write when it changes any."""

    def stored_plan(
        rows: list[StoredTerm], aliases: dict[str, str]
    ) -> tuple[StoredChange | None, T]:
        change, answer = plan(parse_terms(rows), aliases)
        if change is None:
            return None, answer
        put = tuple(StoredTerm(t.id, t.model_dump_json()) for t in change.put)
        kept = draft(answer) if draft is not None else None
        return StoredChange(put, change.remove, change.drop_aliases, change.accepts, kept), answer

    return await store.change_terms(scope, stored_plan, actor_id, action=action)


async def rename_taken(
    store: Store, scope: int, term_id: str, bundled: Glossary
) -> ServerTerm | None:
    """Give the server's term `term_id` a new id if a bundled entry of another concept has its
    id (checked inside the write: another process may have renamed it first), with its related
    ids in the server's other terms that parse (one that does not is left as it is: the bot's
    log names it); the term as renamed, or None if nothing was to do."""
    renamed: list[ServerTerm] = []

    def plan(rows: list[StoredTerm]) -> StoredRename | None:
        terms, _ = parse_readable((scope, row) for row in rows)
        term = next((t for t in terms if t.id == term_id), None)
        if term is None or entry_taking_id(term, bundled) is None:
            return None
        # Free of every stored id, an unreadable term's too (the database holds it).
        new_id = free_id(term, bundled, {row.id for row in rows})
        renamed[:] = [term.model_copy(update={"id": new_id})]
        related = tuple(
            StoredTerm(t.id, _related_renamed(t, term_id, new_id).model_dump_json())
            for t in terms
            if term_id in t.related and t.id != term_id
        )
        return StoredRename(term_id, StoredTerm(new_id, renamed[0].model_dump_json()), related)

    done = await store.rename_term(scope, plan)
    return renamed[0] if done is not None else None


def rename_notes(
    scope: int, terms: Sequence[ServerTerm], bundled: Glossary, stored_ids: Iterable[str] = ()
) -> list[str]:
    """For the command line, which reads and does not rename (the glossary it loads may not be
    the one the bot serves yet): one line per term of the server whose id a bundled entry of
    another concept has, naming the id the bot's next read of the server gives it
    (`rename_taken`, one term at a time: each new id is free of the ones before, and of
    `stored_ids`, those of unreadable terms included)."""
    ids, notes = {t.id for t in terms} | set(stored_ids), []
    for term in terms:
        entry = entry_taking_id(term, bundled)
        if entry is None:
            continue
        new_id = free_id(term, bundled, ids)
        ids.add(new_id)
        notes.append(
            f"glossary-bot: note: server {scope}'s term “{term.title}” has the id {term.id!r}, "
            f"which the glossary's “{entry.title}” now has: the bot renames it {new_id!r} (with "
            "its aliases, related ids and lookups) when it next reads the server with this "
            "glossary"
        )
    return notes


def _related_renamed(term: ServerTerm, old_id: str, new_id: str) -> ServerTerm:
    return term.model_copy(
        update={"related": tuple(new_id if r == old_id else r for r in term.related)}
    )


def orphaned_aliases(
    aliases: Mapping[str, str], removed: Collection[str], kept: Collection[str]
) -> tuple[str, ...]:
    """The keys of aliases that point at a removed term id which nothing `kept` answers to (a
    bundled entry or a term put in the same write): removed with it, not left opening nothing."""
    gone = set(removed) - set(kept)
    return tuple(sorted(key for key, entry_id in aliases.items() if entry_id in gone))


async def waiting_named(
    store: Store, scope: int, by_name: Mapping[str, T], *, read_as: NameReading = as_written
) -> list[tuple[Suggestion, T]]:
    """The open suggestions whose name (`compact`ed) is a key of `by_name`, each with its value
    (what the name now opens): members who suggested a name before a term or alias took it. No
    moderator could accept them (the name is taken), and rejecting them would tell their
    members "not added" about a name that opens a card, so whatever writes a term or alias
    accepts them. Names are compared as search meets them ("Zorb-lax" is "zorb lax"; "zorblax ★"
    and "the zorblax" are read as "zorblax" by `read_as`, search's reading, which its caller
    gives), without running a search per suggestion, or in letters a reader cannot tell apart
    ("Zоrblax" with a Cyrillic о, "ZUМBLAX" with a Cyrillic М: `letters_alike`, given the name
    as written).
    Not in another number: a waiting "gas" is no "GA" added, and telling its member "added"
    would be false; a moderator decides it."""
    if not by_name:
        return []
    waiting = await store.open_suggestions(scope, limit=MAX_OPEN_SUGGESTIONS)
    alike = letters_alike(by_name)
    found = []
    for waiter in waiting:
        # as written, or as search reads it ("zorblax ★", "the zorblax": what it opens)
        keys = (compact(waiter.title), compact(read_as(waiter.title)))
        key = next((k for k in keys if k in by_name), None)
        found.append((waiter, by_name[key] if key is not None else alike(waiter.title)))
    return [(waiter, value) for waiter, value in found if value is not None]


async def accept_as_operator(
    store: Store, scope: int, by_name: Mapping[str, str], *, read_as: NameReading = as_written
) -> tuple[int, bool, set[str]]:
    """The command line's `waiting_named`: accept the open suggestions whose name (`compact`ed)
    a term or alias it wrote now has (name -> the entry id it opens), in the term log as the
    command line's; how many, whether the database failed before every one was, and the names
    accepted (`compact`ed; `untold_line` says all three). The write is done by then: a failure
    here must not read as the command's."""
    accepted = 0
    names: set[str] = set()
    try:
        for waiter, entry_id in await waiting_named(store, scope, by_name, read_as=read_as):
            decided = await store.decide_suggestion(
                scope, waiter.id, accepted=True, actor_id=OPERATOR_ACTOR, term_id=entry_id
            )
            accepted += decided is not None
            if decided is not None:
                names.add(compact(waiter.title))
    except StorageError:
        return accepted, True, names  # the rest stay in the queue, as `/term` leaves them
    return accepted, False, names


def untold_line(accepted: int, *, stopped: bool = False, names: int = 1) -> str:
    """What to add to the command line's output for `accepted` suggestions of `names` names: it
    cannot message members, so it says they were not told; `stopped`: the database failed
    before the rest."""
    said = []
    if accepted:
        noun, who = (
            ("suggestion", "its member was")
            if accepted == 1
            else ("suggestions", "their members were")
        )
        said.append(
            f"Also accepted {accepted:,} waiting {noun} of "
            f"{'that name' if names <= 1 else 'those names'}; {who} not told "
            "(the command line cannot message members)."
        )
    if stopped:
        others = "the others" if accepted else "the waiting suggestions"
        said.append(
            f"The database failed before {others} of that name were accepted: they stay in "
            "the queue."
        )
    return "\n" + " ".join(said) if said else ""
