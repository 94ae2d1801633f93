"""Members' suggestions of missing terms, per server."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..backend import Tx
from ..models import Suggestion, SuggestStatus
from ..periods import from_unix
from . import scalar
from .terms import audit

_COLUMNS = "id, scope, user_id, title, definition, status, created_at"


def _suggestion(row: Sequence[Any]) -> Suggestion:
    row_id, scope, user_id, title, definition, status, created_at = row
    return Suggestion(
        int(row_id), scope, user_id, str(title), str(definition), str(status), from_unix(created_at)
    )


async def add_suggestion(
    tx: Tx,
    *,
    scope: int,
    user_id: int,
    title: str,
    definition: str,
    at: int,
    max_open: int,
    cooldown: int,
) -> SuggestStatus:
    """Queue a suggestion unless this member suggested within `cooldown` seconds or the
    server's queue of open suggestions is full."""
    # Touching the counter row serialises suggestion writes, so the checks below hold.
    await tx.execute("UPDATE counters SET value = value WHERE name = 'term_version'")
    refused = await suggest_refusal(
        tx, scope=scope, user_id=user_id, at=at, max_open=max_open, cooldown=cooldown
    )
    if refused is not None:
        return refused
    await tx.execute(
        "INSERT INTO suggestions (scope, user_id, title, definition, created_at)"
        " VALUES (?, ?, ?, ?, ?)",
        (scope, user_id, title, definition, at),
    )
    return SuggestStatus.ADDED


async def suggest_refusal(
    tx: Tx, *, scope: int, user_id: int, at: int, max_open: int, cooldown: int
) -> SuggestStatus | None:
    """Why this member may not suggest here at `at` (COOLDOWN or FULL), or None if they may."""
    latest = await scalar(
        tx,
        "SELECT max(created_at) FROM suggestions WHERE scope = ? AND user_id = ?",
        (scope, user_id),
    )
    if latest and at - latest < cooldown:
        return SuggestStatus.COOLDOWN
    open_now = await scalar(
        tx, "SELECT count(*) FROM suggestions WHERE scope = ? AND status = 'open'", (scope,)
    )
    if open_now >= max_open:
        return SuggestStatus.FULL
    return None


async def open_suggestions(tx: Tx, *, scope: int, limit: int) -> list[Suggestion]:
    sql = (
        f"SELECT {_COLUMNS} FROM suggestions WHERE scope = ? AND status = 'open'"
        " ORDER BY id LIMIT ?"
    )
    return [_suggestion(row) for row in await tx.fetch(sql, (scope, limit))]


async def get_suggestion(tx: Tx, *, scope: int, suggestion_id: int) -> Suggestion | None:
    sql = f"SELECT {_COLUMNS} FROM suggestions WHERE scope = ? AND id = ?"
    row = await tx.fetchrow(sql, (scope, suggestion_id))
    return _suggestion(row) if row else None


async def decide(
    tx: Tx,
    *,
    scope: int,
    suggestion_id: int,
    accepted: bool,
    actor_id: int,
    at: int,
    term_id: str | None,
) -> Suggestion | None:
    """Close an open suggestion, in the term audit log with who decided and the suggestion as it
    was (`term_id`: the term an accepted one became); None if it is not open (already decided)."""
    found = await get_suggestion(tx, scope=scope, suggestion_id=suggestion_id)
    if found is None or found.status != "open":
        return None
    status = "accepted" if accepted else "rejected"
    changed = await tx.execute(
        "UPDATE suggestions SET status = ?, decided_by = ?, decided_at = ?"
        " WHERE scope = ? AND id = ? AND status = 'open'",
        (status, actor_id, at, scope, suggestion_id),
    )
    if not changed:  # PostgreSQL: another process decided it since the read above
        return None
    suggestion = {
        "id": found.id,
        "user_id": found.user_id,
        "title": found.title,
        "definition": found.definition,
    }
    await audit(
        tx,
        at=at,
        scope=scope,
        actor_id=actor_id,
        action="suggestion_accept" if accepted else "suggestion_reject",
        term_id=term_id if accepted else None,
        before=json.dumps(suggestion, ensure_ascii=False),
        after=None,
    )
    return found


async def suggestion_count(tx: Tx, *, scope: int | None, status: str) -> int:
    if scope is None:
        return await scalar(tx, "SELECT count(*) FROM suggestions WHERE status = ?", (status,))
    return await scalar(
        tx, "SELECT count(*) FROM suggestions WHERE scope = ? AND status = ?", (scope, status)
    )
