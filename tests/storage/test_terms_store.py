"""Server terms and suggestions in the store, on each backend: checked writes in one
transaction, serialised, audited before and after; the version other processes watch; copies."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.glossary import load_glossary
from bot.glossary.server_terms import ServerTerm
from bot.storage import AddAliasStatus, StoredRename, StoredTerm, SuggestionDecided, SuggestStatus
from bot.storage.migrations import migrations
from bot.storage.postgres.migrate import VERSION_TABLE
from bot.storage.queries import suggestions as suggestion_queries
from bot.storage.queries.drafts import DRAFT_TTL, DRAFTS_PER_OWNER
from bot.storage.sqlite.migrate import APPLICATION_ID, split_statements
from bot.term_storage import Plan, TermChange, change_terms, read_terms, rename_taken

from .conftest import Databases, FakeClock, OpenStore


def term(n: int, definition: str = "One of our own local terms, for tests.") -> ServerTerm:
    return ServerTerm(id=f"t{n}", title=f"Term {n}", definition=definition, category="Fundamentals")


async def test_concurrent_writes_each_see_the_last_so_a_cap_holds(open_any: OpenStore) -> None:
    store, other = await open_any(), await open_any()
    cap = 5

    def add(new: ServerTerm) -> Plan[bool]:
        def plan(current: list[ServerTerm], _: object) -> tuple[TermChange | None, bool]:
            if len(current) >= cap:
                return None, False
            return TermChange(put=(new,)), True

        return plan

    results = await asyncio.gather(
        *(change_terms(s, 1, add(term(n)), 9) for n, s in enumerate([store, other] * 6))
    )
    assert sum(results) == cap
    assert len(await read_terms(store, 1)) == cap
    assert await read_terms(store, 2) == []


async def test_an_alias_of_a_term_removed_before_its_write_is_refused(open_any: OpenStore) -> None:
    """Round 26 (test_round26): `own_term` aliases are checked against the terms stored at the
    write, on both backends: one of a term removed first is TERM_GONE, never left behind; and
    an alias and its term's removal raced from two connections leave no alias of a term that is
    gone, whichever is written first."""
    store, other = await open_any(), await open_any()

    def put(*terms: ServerTerm) -> Plan[None]:
        return lambda _current, _aliases: (TermChange(put=terms), None)

    def remove(term_id: str) -> Plan[None]:
        def plan(_current: list[ServerTerm], aliases: Mapping[str, str]) -> tuple[TermChange, None]:
            gone = tuple(key for key, entry_id in aliases.items() if entry_id == term_id)
            return TermChange(remove=(term_id,), drop_aliases=gone), None

        return plan

    await change_terms(store, 1, put(term(1)), 9)
    await change_terms(store, 1, remove("t1"), 9)
    result = await other.add_alias(1, "qx", "qx", "t1", 8, own_term=True)
    assert result.status is AddAliasStatus.TERM_GONE
    assert await store.aliases(1) == {}
    for n in range(2, 8):
        await change_terms(store, 1, put(term(n)), 9)
        await asyncio.gather(
            other.add_alias(1, f"qx{n}", f"qx{n}", f"t{n}", 8, own_term=True),
            change_terms(store, 1, remove(f"t{n}"), 9),
        )
        assert await store.aliases(1) == {}, n


async def test_terms_of_ids_are_found_in_every_server(open_any: OpenStore) -> None:
    """`glossary-bot stats` of all servers names a server's own term by its title there."""
    store = await open_any()

    def put(*terms: ServerTerm) -> Plan[None]:
        return lambda _current, _aliases: (TermChange(put=terms), None)

    await change_terms(store, 1, put(term(1), term(2)), 9)
    await change_terms(store, 2, put(term(1, "Another server's own term one.")), 9)
    found = await store.terms_of_ids(["t1", "t3"])
    assert [(scope, stored.id) for scope, stored in found] == [(1, "t1"), (2, "t1")]
    assert "Another server's" in found[1][1].body
    assert await store.terms_of_ids([]) == []


async def test_changes_are_audited_and_bump_the_version(open_any: OpenStore) -> None:
    store = await open_any()
    start = await store.term_version()
    await change_terms(store, 1, lambda *_: (TermChange(put=(term(1),)), None), 7)
    edited = term(1, "A better definition of our term.")
    await change_terms(store, 1, lambda *_: (TermChange(put=(edited,)), None), 8)
    await change_terms(store, 1, lambda *_: (TermChange(remove=("t1",)), None), 9)
    assert await store.term_version() > start
    audit = await store.term_audit_log(1)
    assert [(a.action, a.actor_id) for a in audit] == [
        ("term_remove", 9),
        ("term_edit", 8),
        ("term_add", 7),
    ]
    assert audit[1].before is not None
    assert ServerTerm.model_validate_json(audit[1].before) == term(1)
    assert audit[1].after is not None
    assert ServerTerm.model_validate_json(audit[1].after) == edited
    assert await store.term_audit_log(2) == []


async def test_suggestions_and_terms_copy_into_another_database(
    open_any: OpenStore, clock: FakeClock, tmp_path: Path
) -> None:
    source = await open_any(str(tmp_path / "source.db"))
    await change_terms(source, 1, lambda *_: (TermChange(put=(term(1), term(2))), None), 7)
    assert await source.add_suggestion(1, 5, "zorblax", "Our nightly job.") is SuggestStatus.ADDED
    assert await source.add_suggestion(1, 5, "again", "Too soon.") is SuggestStatus.COOLDOWN
    clock.advance(hours=1)
    assert await source.add_suggestion(1, 5, "later", "Fine now.") is SuggestStatus.ADDED
    [first, _] = await source.open_suggestions(1)
    assert await source.decide_suggestion(1, first.id, accepted=False, actor_id=3) is not None
    assert await source.decide_suggestion(1, first.id, accepted=True, actor_id=3) is None
    target = await open_any()
    report = await source.copy_into(target)
    assert report.target_after == report.source
    assert await read_terms(target, 1) == await read_terms(source, 1)
    assert [s.title for s in await target.open_suggestions(1)] == ["later"]
    copied = await target.term_audit_log(1)
    assert [a.action for a in copied] == ["suggestion_reject", "term_add", "term_add"]


async def test_a_backup_holds_terms_and_suggestions(open_store: OpenStore, tmp_path: Path) -> None:
    store = await open_store()
    await change_terms(store, 1, lambda *_: (TermChange(put=(term(1),)), None), 7)
    await store.add_suggestion(1, 5, "zorblax", "Our nightly job.")
    await store.backup(tmp_path / "copy.db")
    copy = await open_store(str(tmp_path / "copy.db"))
    assert await read_terms(copy, 1) == [term(1)]
    assert [s.title for s in await copy.open_suggestions(1)] == ["zorblax"]
    assert len(await copy.term_audit_log(1)) == 1


async def test_a_term_write_sees_aliases_and_removes_those_it_orphans(
    open_any: OpenStore,
) -> None:
    """The plan gets the server's aliases as another process left them, inside the write; the
    aliases it drops go in the same transaction, each audited as an alias removal."""
    store, other = await open_any(), await open_any()
    await change_terms(store, 1, lambda *_: (TermChange(put=(term(1), term(2))), None), 7)
    for key, entry_id in (("blorp", "t1"), ("frob", "t2"), ("quux", "t1")):
        await other.add_alias(1, key, key, entry_id, 7)
    await other.add_alias(2, "blorp", "blorp", "t1", 7)
    seen: list[dict[str, str]] = []

    def remove_t1(_: list[ServerTerm], aliases: Mapping[str, str]) -> tuple[TermChange, None]:
        seen.append(dict(aliases))
        return TermChange(remove=("t1",), drop_aliases=("blorp", "quux")), None

    await change_terms(store, 1, remove_t1, 9)
    assert seen == [{"blorp": "t1", "frob": "t2", "quux": "t1"}]
    assert await other.aliases(1) == {"frob": "t2"}
    assert await other.aliases(2) == {"blorp": "t1"}  # another server's alias is its own
    audit = await store.audit_log(1)
    assert sorted((a.action.value, a.alias_key, a.actor_id) for a in audit[:2]) == [
        ("alias_remove", "blorp", 9),
        ("alias_remove", "quux", 9),
    ]


async def test_decisions_on_suggestions_are_in_the_term_audit_log(
    open_any: OpenStore, clock: FakeClock
) -> None:
    store = await open_any()
    await store.add_suggestion(1, 5, "Zorblax", "Our nightly job, ‘quoted’ <@1>.")
    clock.advance(hours=1)
    await store.add_suggestion(1, 6, "Frob", "Another member's idea.")
    await store.add_suggestion(2, 5, "Elsewhere", "In another server.")
    zorblax, frob = await store.open_suggestions(1)
    assert await store.decide_suggestion(
        1, zorblax.id, accepted=True, actor_id=3, term_id="zorblax"
    )
    clock.advance(minutes=5)
    assert await store.decide_suggestion(1, frob.id, accepted=False, actor_id=4)
    # Decided already: nothing more is logged.
    assert await store.decide_suggestion(1, frob.id, accepted=True, actor_id=9) is None
    rejected, accepted = await store.term_audit_log(1)
    assert (rejected.action, rejected.actor_id, rejected.term_id) == ("suggestion_reject", 4, None)
    assert (accepted.action, accepted.actor_id, accepted.term_id) == (
        "suggestion_accept",
        3,
        "zorblax",
    )
    assert rejected.at - accepted.at == timedelta(minutes=5)
    assert json.loads(accepted.before or "") == {
        "id": zorblax.id,
        "user_id": 5,
        "title": "Zorblax",
        "definition": "Our nightly job, ‘quoted’ <@1>.",
    }
    assert await store.term_audit_log(2) == []


class PausedAfterItsRead:
    """Holds the first `suggestions.decide` to read its suggestion right after that read, until
    `go` is set: the moment another process's decision can slip in (read, not yet written)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.read, self.go = asyncio.Event(), asyncio.Event()
        real = suggestion_queries.get_suggestion

        async def get_suggestion(tx: Any, **where: Any) -> Any:
            found = await real(tx, **where)
            if not self.read.is_set():
                self.read.set()
                await self.go.wait()
            return found

        monkeypatch.setattr(suggestion_queries, "get_suggestion", get_suggestion)


async def test_two_processes_deciding_one_suggestion_at_once_decide_it_once(
    open_any: OpenStore, backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """left25's reading, tried: a decision read the suggestion as open, then updated it `WHERE
    status = 'open'` and audited it without asking whether that update changed a row. On
    PostgreSQL (READ COMMITTED) another process's decision can commit between the two, and both
    audited the suggestion and both told their moderator (and its member) it was theirs. Now the
    later one is the update that changed nothing: None, nothing audited."""
    store, other = await open_any(), await open_any()  # two processes' connections
    await store.add_suggestion(1, 5, "Zorblax", "Our nightly job.")
    [waiting] = await store.open_suggestions(1)
    paused = PausedAfterItsRead(monkeypatch)
    first = asyncio.create_task(store.decide_suggestion(1, waiting.id, accepted=True, actor_id=3))
    await paused.read.wait()  # the first decision has read it open, and waits before its update
    second = asyncio.create_task(other.decide_suggestion(1, waiting.id, accepted=False, actor_id=4))
    if backend == "postgres":  # the other process reads it open too, and commits first
        assert await second is not None
        paused.go.set()
        assert await first is None
    else:  # SQLite: a write takes the file's write lock first (BEGIN IMMEDIATE): the other
        # process cannot read before the first commits, and then reads it decided
        paused.go.set()
        assert await first is not None
        assert await second is None
    audit = await store.term_audit_log(1)
    assert len(audit) == 1, [(a.action, a.actor_id) for a in audit]
    decided = await store.suggestion(1, waiting.id)
    assert decided is not None
    assert (decided.status, audit[0].action) in {
        ("rejected", "suggestion_reject"),
        ("accepted", "suggestion_accept"),
    }
    assert decided.status == ("rejected" if backend == "postgres" else "accepted")


async def test_the_term_audit_log_reads_in_pages(open_any: OpenStore) -> None:
    store = await open_any()
    for n in range(7):
        await change_terms(store, 1, lambda *_, n=n: (TermChange(put=(term(n),)), None), 7)
    await change_terms(store, 2, lambda *_: (TermChange(put=(term(99),)), None), 7)
    newest = await store.term_audit_log(1, 3)
    assert [a.term_id for a in newest] == ["t6", "t5", "t4"]
    older = await store.term_audit_log(1, 3, older_than=newest[-1].id)
    assert [a.term_id for a in older] == ["t3", "t2", "t1"]
    last = await store.term_audit_log(1, 3, older_than=older[-1].id)
    assert [a.term_id for a in last] == ["t0"]
    assert await store.term_audit_log(1, 3, older_than=last[-1].id) == []


async def test_stats_count_terms_and_suggestions_per_server(
    open_any: OpenStore, clock: FakeClock
) -> None:
    store = await open_any()
    await change_terms(store, 1, lambda *_: (TermChange(put=(term(1), term(2))), None), 7)
    await change_terms(store, 2, lambda *_: (TermChange(put=(term(3),)), None), 7)
    for user in (5, 6, 7):
        await store.add_suggestion(1, user, f"idea {user}", "Something missing here.")
    await store.add_suggestion(2, 5, "idea", "Something missing there.")
    first, second, _ = await store.open_suggestions(1)
    await store.decide_suggestion(1, first.id, accepted=True, actor_id=3, term_id="t1")
    await store.decide_suggestion(1, second.id, accepted=False, actor_id=3)
    one = await store.stats(1)
    assert (one.term_count, one.suggestions) == (2, {"open": 1, "accepted": 1, "rejected": 1})
    every = await store.stats(None)
    assert (every.term_count, every.suggestions) == (3, {"open": 2, "accepted": 1, "rejected": 1})
    assert every.to_json()["suggestions"] == {"open": 2, "accepted": 1, "rejected": 1}
    dms = await store.stats(0)
    assert (dms.term_count, dms.suggestions) == (0, {"open": 0, "accepted": 0, "rejected": 0})


async def test_term_drafts_are_kept_per_server_and_moderator_and_bounded(
    open_any: OpenStore, clock: FakeClock
) -> None:
    store = await open_any()
    await store.save_term_draft("a" * 12, 1, 7, '{"x": 1}')
    assert await store.term_draft("a" * 12, 1, 7) == '{"x": 1}'
    assert await store.term_draft("a" * 12, 2, 7) is None  # another server
    assert await store.term_draft("a" * 12, 1, 8) is None  # another moderator
    await store.save_term_draft("a" * 12, 1, 7, '{"x": 2}')  # saved again: replaced
    assert await store.term_draft("a" * 12, 1, 7) == '{"x": 2}'
    again = await open_any()  # another process, or the bot after a restart
    assert await again.term_draft("a" * 12, 1, 7) == '{"x": 2}'
    # A moderator opening forms in a loop keeps only the newest, the one just opened included.
    for n in range(DRAFTS_PER_OWNER + 20):
        await store.save_term_draft(f"{n:012d}", 1, 9, "{}")
    kept = [await store.term_draft(f"{n:012d}", 1, 9) for n in range(DRAFTS_PER_OWNER + 20)]
    assert sum(k is not None for k in kept) == DRAFTS_PER_OWNER
    assert kept[-1] is not None
    assert await store.term_draft("a" * 12, 1, 7) is not None  # others' drafts untouched
    clock.advance(seconds=DRAFT_TTL + 1)
    await store.save_term_draft("b" * 12, 3, 3, "{}")  # any save forgets drafts past their time
    assert await store.term_draft("a" * 12, 1, 7) is None
    assert await store.term_draft("b" * 12, 3, 3) == "{}"


async def schema_at(databases: Databases, location: str, version: int) -> None:
    """A database as a bot of schema `version` left it (the migrations up to it, applied the
    way each backend's migrator applies them)."""
    dialect = "sqlite" if databases.backend == "sqlite" else "postgres"
    wanted = [m for m in migrations(dialect) if m.version <= version]
    if dialect == "sqlite":
        conn = sqlite3.connect(location, isolation_level=None)
        try:
            for migration in wanted:
                for statement in split_statements(migration.sql):
                    conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {version}")
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        finally:
            conn.close()
        return
    for migration in wanted:
        await databases.execute(location, migration.sql)
    await databases.execute(
        location,
        f"CREATE TABLE {VERSION_TABLE} (version INTEGER NOT NULL);"
        f" INSERT INTO {VERSION_TABLE} (version) VALUES ({version})",
    )


async def test_upgrading_keeps_the_term_audit_log_append_only(
    databases: Databases, location: str, open_any: OpenStore
) -> None:
    await schema_at(databases, location, 4)
    await databases.execute(
        location,
        "INSERT INTO term_audit_log (at, scope, actor_id, action, term_id, before, after)"
        " VALUES (1700000000, 1, 7, 'term_add', 't1', NULL, '{}')",
    )
    store = await open_any()  # migrates to the latest schema
    [kept] = await store.term_audit_log(1)
    assert (kept.action, kept.term_id, kept.actor_id, kept.after) == ("term_add", "t1", 7, "{}")
    await store.add_suggestion(1, 5, "Zorblax", "Our nightly job.")
    [waiting] = await store.open_suggestions(1)
    await store.decide_suggestion(1, waiting.id, accepted=False, actor_id=3)
    assert [a.action for a in await store.term_audit_log(1)] == ["suggestion_reject", "term_add"]
    for sql in ("UPDATE term_audit_log SET actor_id = 1", "DELETE FROM term_audit_log"):
        with pytest.raises((sqlite3.Error, asyncpg.PostgresError), match="append-only"):
            await databases.execute(location, sql)
    assert len(await store.term_audit_log(1)) == 2


async def test_a_term_whose_id_an_entry_takes_is_renamed_once_with_what_named_it(
    open_any: OpenStore, clock: FakeClock, tmp_path: Path
) -> None:
    """X35: the glossary gives a server term's id to an entry of another concept. One write
    gives the term a free id, with the server's aliases, its other terms' `related` and its
    lookups (hour by hour, added to any of the new id); two processes meeting the clash at
    once rename it once; another server's term of that id is not touched."""
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "mine.toml").write_text(
        '[[entries]]\nid = "t1"\ntitle = "Blapper Unit"\ncategory = "Fundamentals"\n'
        'definition = "The maintainers\' blapper unit, another concept."\n'
    )
    glossary = load_glossary([folder])
    store, other = await open_any(), await open_any()
    referrer = term(2).model_copy(update={"related": ("t1",)})
    taken = term(1).model_copy(update={"title": "Blap"})
    await change_terms(store, 1, lambda *_: (TermChange(put=(taken, referrer)), None), 7)
    await change_terms(store, 2, lambda *_: (TermChange(put=(taken,)), None), 7)
    await store.add_alias(1, "qq blap", "qq blap", "t1", actor_id=7)
    store.record_lookup(1, "t1")
    store.record_lookup(1, "t1")
    store.record_lookup(1, "blap")  # a removed term of that id, counted in the same hour
    clock.advance(hours=1)
    store.record_lookup(1, "t1")
    await store.flush()
    version = await store.term_version()

    first, second = await asyncio.gather(
        rename_taken(store, 1, "t1", glossary), rename_taken(other, 1, "t1", glossary)
    )

    renamed = first or second
    assert None in (first, second), (first, second)  # the second found nothing to do
    assert renamed is not None
    assert (renamed.id, renamed.title) == ("blap", "Blap")
    assert await store.term_version() > version
    assert {t.id: t.related for t in await read_terms(store, 1)} == {"blap": (), "t2": ("blap",)}
    assert [t.id for t in await read_terms(store, 2)] == ["t1"]
    assert await store.aliases(1) == {"qq blap": "blap"}
    assert await store.lookup_count(1, "blap") == 4
    assert await store.lookup_count(1, "t1") == 0
    [audit, *_] = await store.term_audit_log(1)
    assert (audit.action, audit.term_id, audit.actor_id) == ("term_rename", "blap", 0)
    assert audit.before is not None
    assert json.loads(audit.before)["id"] == "t1"


async def test_upgrading_to_v6_keeps_the_term_log_and_takes_a_rename(
    databases: Databases, location: str, open_any: OpenStore
) -> None:
    """A database of schema 5 (before `term_rename`) upgrades with its log and its terms kept,
    and the log then takes a rename, still append-only."""
    await schema_at(databases, location, 5)
    await databases.execute(
        location,
        "INSERT INTO term_audit_log (at, scope, actor_id, action, term_id, before, after)"
        " VALUES (1700000000, 1, 7, 'term_add', 't1', NULL, '{}')",
    )
    await databases.execute(
        location,
        "INSERT INTO terms (scope, id, body, updated_by, updated_at)"
        f" VALUES (1, 't1', '{term(1).model_dump_json()}', 7, 1700000000)",
    )
    store = await open_any()  # migrates to the latest schema
    assert [t.id for t in await read_terms(store, 1)] == ["t1"]
    renamed = term(1).model_copy(update={"id": "t1-2"})
    done = await store.rename_term(
        1, lambda _: StoredRename("t1", StoredTerm("t1-2", renamed.model_dump_json()))
    )
    assert done is not None
    assert [(a.action, a.term_id) for a in await store.term_audit_log(1)] == [
        ("term_rename", "t1-2"),
        ("term_add", "t1"),
    ]
    with pytest.raises((sqlite3.Error, asyncpg.PostgresError), match="append-only"):
        await databases.execute(location, "DELETE FROM term_audit_log")


async def test_a_term_write_accepting_a_suggestion_decides_it_in_the_same_write(
    open_any: OpenStore,
) -> None:
    """An Accept… form's term and its suggestion's acceptance are one write: a suggestion
    decided meanwhile (by another process here) undoes the term too."""
    store, other = await open_any(), await open_any()
    await store.add_suggestion(1, 5, "Zorblax", "Our nightly job.")
    await store.add_suggestion(1, 6, "Frob", "Another member's idea.")
    zorblax, frob = await store.open_suggestions(1)

    def accepting(n: int, suggestion_id: int) -> Plan[str]:
        return lambda *_: (TermChange(put=(term(n),), accepts=suggestion_id), "written")

    assert await change_terms(store, 1, accepting(1, zorblax.id), 7) == "written"
    assert await other.decide_suggestion(1, frob.id, accepted=False, actor_id=4)
    with pytest.raises(SuggestionDecided):
        await change_terms(store, 1, accepting(2, frob.id), 7)
    assert await read_terms(store, 1) == [term(1)]
    log = [(a.action, a.term_id) for a in await store.term_audit_log(1)]
    assert log == [("suggestion_reject", None), ("suggestion_accept", "t1"), ("term_add", "t1")]
