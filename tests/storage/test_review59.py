"""review59 (tests/outsider/PLAN.md, "Attacks on outsider51 and review58 (review59)"), on both
backends: each test failing on main 0dc403b first."""

from __future__ import annotations

from bot.glossary import load_glossary
from bot.glossary.interchange import export_bytes
from bot.glossary.server_terms import ServerTerm, text_size
from bot.term_import import import_terms
from bot.term_storage import TermChange, change_terms, read_terms

from .conftest import OpenStore

TERMS = (
    ServerTerm(
        id="zorbic",
        title="Zorbic Ledger",
        definition="Our zorbic ledger of nightly jobs.",
        category="Fundamentals",
    ),
    ServerTerm(
        id="blorp",
        title="Blorp Board",
        definition="Our blorp board of who is on call.",
        category="Fundamentals",
    ),
)


async def test_a_server_past_its_text_cap_imports_its_own_export(open_any: OpenStore) -> None:
    """A server stored before outsider51 counted a list's ", " (or before its cap was lowered)
    may be past its text cap: its own export imported back (the README's way to move or
    restore a server's terms; `glossary-bot terms import` and `/term import` alike) was refused
    as past it. Now an import that takes it no further past the cap is taken; one that grows
    it is still refused, nothing written."""
    store = await open_any()
    try:
        await change_terms(store, 7, lambda *_: (TermChange(put=TERMS), None), 1)
        stored = await read_terms(store, 7)
        size = sum(text_size(t) for t in stored)
        caps = (10, size - 4)
        data = export_bytes(stored)
        glossary = load_glossary()

        async def imported(data: bytes) -> list[str]:
            outcome = await import_terms(
                store, 7, data, "terms.toml", glossary, actor_id=1, caps=caps, dry_run=False
            )
            return [p.message for p in outcome.errors]

        assert await imported(data) == []  # before: "can hold at most ..."
        assert await read_terms(store, 7) == stored
        grown = data.replace(b"nightly jobs.", b"nightly jobs, and more.")
        [refused] = await imported(grown)
        assert f"({size + 10:,} bytes with this change: 14 too many)" in refused, refused
        assert await read_terms(store, 7) == stored
    finally:
        await store.close()
