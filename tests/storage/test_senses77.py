"""A server term's other senses in storage (task senses77), on both backends: kept in the term's
body and read back; a term stored before migration 11 (no such field) reads with none, and its
database is at the latest version after the upgrade."""

from __future__ import annotations

from bot.glossary.server_terms import ServerTerm
from bot.storage.migrations import latest_version
from bot.term_storage import TermChange, change_terms, read_terms

from .conftest import Databases, OpenStore
from .test_terms_store import schema_at

RAID = ServerTerm(
    id="raid",
    title="Raid",
    category="Agents & Interfaces",
    definition="Our weekly group event where twenty players fight the hardest bosses together.",
    other_senses=("a police raid on a house or a business", "RAID disks in a storage array"),
)


async def test_a_term_s_other_senses_are_stored_and_read_back(open_any: OpenStore) -> None:
    store = await open_any()
    await change_terms(store, 1, lambda *_: (TermChange(put=(RAID,)), None), 7)
    assert await read_terms(store, 1) == [RAID]
    [audit] = await store.term_audit_log(1)
    assert audit.after is not None
    assert "a police raid on a house" in audit.after
    other = await open_any()  # another process reads them too
    assert (await read_terms(other, 1))[0].other_senses == RAID.other_senses


async def test_a_term_stored_before_the_field_reads_with_none(
    databases: Databases, location: str, open_any: OpenStore
) -> None:
    await schema_at(databases, location, 10)
    assert latest_version("sqlite") == latest_version("postgres") == 11
    body = RAID.model_dump_json(exclude={"other_senses"})
    assert "other_senses" not in body
    await databases.execute(
        location,
        "INSERT INTO terms (scope, id, body, updated_by, updated_at)"
        f" VALUES (1, 'raid', '{body.replace(chr(39), chr(39) * 2)}', 7, 1700000000)",
    )
    store = await open_any()  # migrates to the latest schema
    assert await store.schema_behind() is None
    [term] = await read_terms(store, 1)
    assert term == RAID.model_copy(update={"other_senses": ()})
