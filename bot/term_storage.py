"""A server's own terms to and from the store: the store keeps each as an id and JSON, and knows
nothing of the glossary; the Discord layer and the command line read and write `ServerTerm`s
through these."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from bot.glossary.server_terms import ServerTerm
from bot.storage import Store, StoredChange, StoredTerm

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class TermChange:
    """A write of a server's terms: these put (added or replaced, by id), those ids removed."""

    put: tuple[ServerTerm, ...] = ()
    remove: tuple[str, ...] = ()


Plan = Callable[[list[ServerTerm]], tuple[TermChange | None, T]]


def parse_terms(stored: list[StoredTerm]) -> list[ServerTerm]:
    return [ServerTerm.model_validate_json(row.body) for row in stored]


async def read_terms(store: Store, scope: int) -> list[ServerTerm]:
    return parse_terms(await store.terms(scope))


async def change_terms(
    store: Store, scope: int, plan: Plan[T], actor_id: int, *, action: str | None = None
) -> T:
    """`Store.change_terms` with terms: `plan` gets the server's terms as they are, inside the
    write's transaction, and returns the change (None: nothing) and what to answer."""

    def stored_plan(rows: list[StoredTerm]) -> tuple[StoredChange | None, T]:
        change, answer = plan(parse_terms(rows))
        if change is None:
            return None, answer
        put = tuple(StoredTerm(t.id, t.model_dump_json()) for t in change.put)
        return StoredChange(put=put, remove=change.remove), answer

    return await store.change_terms(scope, stored_plan, actor_id, action=action)
