"""loose77: `Store.servers`, what `glossary-bot stats --servers` lists (both backends)."""

from __future__ import annotations

from bot.storage import Store
from bot.storage.queries.counts import ServerHeld


async def test_servers_lists_every_server_the_database_holds(store: Store) -> None:
    """Every server with anything stored, by id, with its lookups, aliases, terms and waiting
    suggestions: one with only missed searches too, and direct messages (0)."""
    assert await store.servers() == []
    for _ in range(3):
        store.record_lookup(7, "kv-cache")
    store.record_lookup(0, "rag")
    store.record_miss(9, "zorblax")
    await store.flush()
    await store.add_alias(7, "kvc", "KVC", "kv-cache", actor_id=42)
    await store.add_alias(7, "ragg", "ragg", "rag", actor_id=42)
    await store.add_suggestion(2**62, 5, "zorblax", "Our nightly job.")
    assert await store.servers() == [
        ServerHeld(0, 1, 0, 0, 0),
        ServerHeld(7, 3, 2, 0, 0),
        ServerHeld(9, 0, 0, 0, 0),
        ServerHeld(2**62, 0, 0, 0, 1),
    ]
