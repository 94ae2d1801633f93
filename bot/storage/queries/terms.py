"""Each server's own glossary terms and the audit log of their changes."""

from __future__ import annotations

from collections.abc import Sequence

from ..backend import Tx
from ..models import StoredChange, StoredRename, StoredTerm, TermAuditRecord
from ..periods import from_unix
from . import chunks, marks, scalar


async def terms(tx: Tx, scope: int) -> list[StoredTerm]:
    rows = await tx.fetch("SELECT id, body FROM terms WHERE scope = ? ORDER BY id", (scope,))
    return [StoredTerm(str(term_id), str(body)) for term_id, body in rows]


async def term_ids(tx: Tx, scope: int) -> set[str]:
    """The ids of the server's own terms."""
    return {str(i) for (i,) in await tx.fetch("SELECT id FROM terms WHERE scope = ?", (scope,))}


async def term_scopes(tx: Tx) -> list[int]:
    """Every server with terms or aliases of its own, by id."""
    sql = "SELECT scope FROM terms UNION SELECT scope FROM aliases ORDER BY scope"
    return [int(scope) for (scope,) in await tx.fetch(sql)]


async def terms_of_ids(tx: Tx, ids: Sequence[str]) -> list[tuple[int, StoredTerm]]:
    """Every server's terms with one of these ids, with their server, by server and id."""
    found: list[tuple[int, StoredTerm]] = []
    for chunk in chunks(sorted(set(ids))):
        sql = f"SELECT scope, id, body FROM terms WHERE id IN ({marks(chunk)})"
        rows = await tx.fetch(sql, chunk)
        found += [
            (int(scope), StoredTerm(str(term_id), str(body))) for scope, term_id, body in rows
        ]
    return sorted(found, key=lambda row: (row[0], row[1].id))


async def term_version(tx: Tx) -> int:
    """Bumped by a trigger on every change to terms, from any process."""
    return await scalar(tx, "SELECT value FROM counters WHERE name = 'term_version'")


async def lock_terms(tx: Tx) -> None:
    """Serialise term writes (rare): they read the server's terms, check, then write. Touching
    the counter row takes SQLite's write lock and PostgreSQL's row lock until commit."""
    await tx.execute("UPDATE counters SET value = value WHERE name = 'term_version'")


async def apply_change(
    tx: Tx,
    *,
    scope: int,
    before: Sequence[StoredTerm],
    change: StoredChange,
    actor_id: int,
    at: int,
    write_id: str,
    action: str | None = None,
) -> None:
    """Write `change` over `before` (the terms as read in this transaction), audited; a
    removal's entry carries `write_id`, as do the aliases the write takes with it."""
    old = {t.id: t for t in before}
    for term_id in change.remove:
        if term_id in old:
            await tx.execute("DELETE FROM terms WHERE scope = ? AND id = ?", (scope, term_id))
            await _audit(
                tx,
                at,
                scope,
                actor_id,
                action or "term_remove",
                term_id,
                old[term_id],
                None,
                write_id,
            )
    for term in change.put:
        previous = old.get(term.id)
        if previous == term:
            continue
        body = term.body
        if previous is None:
            await tx.execute(
                "INSERT INTO terms (scope, id, body, updated_by, updated_at) VALUES (?, ?, ?, ?, ?)",
                (scope, term.id, body, actor_id, at),
            )
        else:
            await tx.execute(
                "UPDATE terms SET body = ?, updated_by = ?, updated_at = ?"
                " WHERE scope = ? AND id = ?",
                (body, actor_id, at, scope, term.id),
            )
        verb = action or ("term_add" if previous is None else "term_edit")
        await _audit(tx, at, scope, actor_id, verb, term.id, previous, term)


async def rename(
    tx: Tx, *, scope: int, before: StoredTerm, rename: StoredRename, actor_id: int, at: int
) -> None:
    """Give a server term another id (`before`: as read in this transaction), its `related`
    rewritten in the server's other terms, audited (`term_rename`: the term before and after)."""
    await tx.execute(
        "UPDATE terms SET id = ?, body = ? WHERE scope = ? AND id = ?",
        (rename.renamed.id, rename.renamed.body, scope, before.id),
    )
    for term in rename.related:
        await tx.execute(
            "UPDATE terms SET body = ? WHERE scope = ? AND id = ?", (term.body, scope, term.id)
        )
    await _audit(tx, at, scope, actor_id, "term_rename", rename.renamed.id, before, rename.renamed)


async def _audit(
    tx: Tx,
    at: int,
    scope: int,
    actor_id: int,
    action: str,
    term_id: str,
    before: StoredTerm | None,
    after: StoredTerm | None,
    write_id: str | None = None,
) -> None:
    await audit(
        tx,
        at=at,
        scope=scope,
        actor_id=actor_id,
        action=action,
        term_id=term_id,
        before=before.body if before else None,
        after=after.body if after else None,
        write_id=write_id,
    )


async def audit(
    tx: Tx,
    *,
    at: int,
    scope: int,
    actor_id: int,
    action: str,
    term_id: str | None,
    before: str | None,
    after: str | None,
    write_id: str | None = None,
) -> None:
    """One entry of the term audit log (terms, and moderators' decisions on suggestions)."""
    await tx.execute(
        "INSERT INTO term_audit_log (at, scope, actor_id, action, term_id, before, after,"
        " write_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (at, scope, actor_id, action, term_id, before, after, write_id),
    )


async def ever_a_term(tx: Tx, *, scope: int, term_id: str) -> bool:
    """Whether the server's term log holds a term with the id `term_id` (it is never pruned
    nor changed: a term removed, or imported away, stays there)."""
    sql = "SELECT 1 FROM term_audit_log WHERE scope = ? AND term_id = ? LIMIT 1"
    return bool(await tx.fetch(sql, (scope, term_id)))


async def term_audit_log(
    tx: Tx, *, scope: int, limit: int, older_than: int | None = None
) -> list[TermAuditRecord]:
    """Newest first; only entries after the entry `older_than` (an id) in that order when
    given: a page. Newest in time, then by id: row ids order one database's writes, but
    `migrate-db --force` appends another database's log after this one's, where only the time
    tells which came first."""
    after_cursor = ""
    cursor: tuple[int, ...] = ()
    if older_than is not None:
        found = await tx.fetch("SELECT at FROM term_audit_log WHERE id = ?", (older_than,))
        # A row value: the index by (scope, at, id) is entered at the cursor, not read from
        # the top. An entry gone (a backup restored from before it) has no time: by id, in
        # that index still (`+id`: not the index by id, whose rows would all be sorted).
        after_cursor = " AND (at, id) < (?, ?)" if found else " AND +id < ?"
        cursor = (found[0][0], older_than) if found else (older_than,)
    sql = (
        "SELECT id, at, scope, actor_id, action, term_id, before, after FROM term_audit_log"
        f" WHERE scope = ?{after_cursor} ORDER BY at DESC, id DESC LIMIT ?"
    )
    params = (scope, *cursor, limit)
    return [
        TermAuditRecord(
            row_id,
            from_unix(at),
            s,
            actor,
            str(action),
            None if term_id is None else str(term_id),
            before,
            after,
        )
        for row_id, at, s, actor, action, term_id, before, after in await tx.fetch(sql, params)
    ]


async def removed_with(
    tx: Tx, *, scope: int, term_id: str, write_id: str | None, at: int, actor_id: int
) -> TermAuditRecord | None:
    """The term `term_id`'s removal in the write `write_id`, if any: a term removed takes its
    aliases in the same write. An alias removal logged before write ids were kept (`write_id`
    None) is matched as then, by actor and second (`at`, unix seconds): an alias removed alone
    by them in that second too reads as removed with its term."""
    where, params = "write_id = ?", [scope, term_id, write_id]
    if write_id is None:
        where, params = (
            "write_id IS NULL AND at = ? AND actor_id = ?",
            [scope, term_id, at, actor_id],
        )
    sql = (
        "SELECT id, at, scope, actor_id, action, term_id, before, after FROM term_audit_log"
        f" WHERE scope = ? AND term_id = ? AND {where} AND after IS NULL"
        " ORDER BY id DESC LIMIT 1"
    )
    row = await tx.fetchrow(sql, params)
    if row is None:
        return None
    row_id, when, s, actor, action, tid, before, after = row
    return TermAuditRecord(row_id, from_unix(when), s, actor, str(action), str(tid), before, after)


async def term_count(tx: Tx, *, scope: int | None) -> int:
    if scope is None:
        return await scalar(tx, "SELECT count(*) FROM terms")
    return await scalar(tx, "SELECT count(*) FROM terms WHERE scope = ?", (scope,))
