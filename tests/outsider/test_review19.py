"""Faults found reading session 19's change (task review19), each through the real code."""

from __future__ import annotations

from pathlib import Path

from bot.glossary import Glossary
from bot.glossary.server_terms import ServerTerm
from bot.storage import Store
from bot.term_storage import rename_taken

from .test_round14 import _cli
from .test_round19_store import CLASH, _put, _spoil

# CLASH: a server's term stored under the id of a bundled entry of another concept (KV Cache);
# its title's id, `zorblax-quux`, is what a rename gives it when that id is free.
SPOILT = ServerTerm(
    id="zorblax-quux", title="Quux Runner", definition="Runs the quux.", category="Fundamentals"
)


async def test_a_rename_takes_no_id_an_unreadable_term_holds(
    tmp_path: Path, glossary: Glossary
) -> None:
    """The rename's plan skips a stored term that does not parse (store19), and so left its id
    out of the ids taken: a term renamed to that very id collided with it in the database,
    and the rename was refused at every read of the server. Every stored id is taken."""
    db = tmp_path / "g.db"
    store = await Store.open(db, flush_interval=None)
    try:
        await _put(store, 5, CLASH, SPOILT)
        _spoil(db, "zorblax-quux")
        renamed = await rename_taken(store, 5, "kv-cache", glossary)
        ids = sorted(row.id for row in await store.terms(5))
    finally:
        await store.close()
    assert renamed is not None
    assert ids == sorted(["zorblax-quux", renamed.id]), ids
    assert renamed.id != "zorblax-quux"


async def test_stats_names_the_id_the_rename_gives_beside_an_unreadable_term(
    tmp_path: Path, glossary: Glossary
) -> None:
    """`stats --guild` says which id the bot's rename gives a term (store19); it left an
    unreadable term's id out of the ids taken, as the rename did, and named an id the rename
    does not give."""
    db = tmp_path / "g.db"
    store = await Store.open(db, flush_interval=None)
    try:
        await _put(store, 5, CLASH, SPOILT)
    finally:
        await store.close()
    _spoil(db, "zorblax-quux")
    shown = _cli(tmp_path, "stats", "--db", str(db), "--guild", "5")
    assert shown.returncode == 0, shown.stderr
    notes = [line for line in shown.stderr.splitlines() if "note:" in line]
    assert len(notes) == 1, shown.stderr
    assert "the bot renames it 'zorblax-quux-2'" in notes[0], notes
    store = await Store.open(db, flush_interval=None)
    try:
        renamed = await rename_taken(store, 5, "kv-cache", glossary)
    finally:
        await store.close()
    assert renamed is not None
    assert renamed.id == "zorblax-quux-2"
