"""A server's own terms to and from the store: the store keeps each as an id and JSON, and knows
nothing of the glossary; the Discord layer and the command line read and write `ServerTerm`s
through these."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from bot.glossary.keys import compact
from bot.glossary.server_terms import ServerTerm
from bot.storage import MAX_OPEN_SUGGESTIONS, Store, StoredChange, StoredTerm, Suggestion

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class TermChange:
    """A write of a server's terms: these put (added or replaced, by id), those ids removed,
    and the aliases with these keys removed with them (`orphaned_aliases`)."""

    put: tuple[ServerTerm, ...] = ()
    remove: tuple[str, ...] = ()
    drop_aliases: tuple[str, ...] = ()


# The server's terms and its aliases (key -> entry id), as they are inside the write.
Plan = Callable[[list[ServerTerm], Mapping[str, str]], tuple[TermChange | None, T]]


def parse_terms(stored: list[StoredTerm]) -> list[ServerTerm]:
    return [ServerTerm.model_validate_json(row.body) for row in stored]


async def read_terms(store: Store, scope: int) -> list[ServerTerm]:
    return parse_terms(await store.terms(scope))


async def change_terms(
    store: Store, scope: int, plan: Plan[T], actor_id: int, *, action: str | None = None
) -> T:
    """`Store.change_terms` with terms: `plan` gets the server's terms and aliases as they are,
    inside the write's transaction, and returns the change (None: nothing) and what to answer."""

    def stored_plan(
        rows: list[StoredTerm], aliases: dict[str, str]
    ) -> tuple[StoredChange | None, T]:
        change, answer = plan(parse_terms(rows), aliases)
        if change is None:
            return None, answer
        put = tuple(StoredTerm(t.id, t.model_dump_json()) for t in change.put)
        return StoredChange(put, change.remove, change.drop_aliases), answer

    return await store.change_terms(scope, stored_plan, actor_id, action=action)


def orphaned_aliases(
    aliases: Mapping[str, str], removed: Collection[str], kept: Collection[str]
) -> tuple[str, ...]:
    """The keys of aliases that point at a removed term id which nothing `kept` answers to (a
    bundled entry or a term put in the same write): removed with it, not left opening nothing."""
    gone = set(removed) - set(kept)
    return tuple(sorted(key for key, entry_id in aliases.items() if entry_id in gone))


async def waiting_for(
    store: Store, scope: int, terms: Sequence[ServerTerm]
) -> list[tuple[Suggestion, ServerTerm]]:
    """The open suggestions whose name one of `terms` now has, each with that term: members
    who suggested it before it was written. No moderator could accept them (the name is
    taken), and rejecting them would tell their members "not added" about a term that is
    there, so whatever writes a term accepts them. Names are compared as search meets them
    ("Zorb-lax" is "zorb lax"), without running a search per suggestion."""
    return await waiting_named(
        store, scope, {compact(name): term for term in terms for name in term.names}
    )


async def waiting_named(
    store: Store, scope: int, by_name: Mapping[str, T]
) -> list[tuple[Suggestion, T]]:
    """The open suggestions whose name (`compact`ed) is a key of `by_name`, each with its value:
    `waiting_for` of terms, or of an alias that now opens a term."""
    if not by_name:
        return []
    waiting = await store.open_suggestions(scope, limit=MAX_OPEN_SUGGESTIONS)
    found = [(waiter, by_name.get(compact(waiter.title))) for waiter in waiting]
    return [(waiter, value) for waiter, value in found if value is not None]
