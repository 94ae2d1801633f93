"""The term forms moderators have open (`/term add|edit`), so a submit after a restart still
knows what the form was opened with. Each is opaque JSON to the store."""

from __future__ import annotations

from ..backend import Tx

DRAFT_TTL = 7 * 24 * 3600  # seconds a form's draft is kept after it was last saved
DRAFTS_PER_OWNER = 50  # per moderator and server: the newest are kept


async def save_draft(tx: Tx, *, nonce: str, scope: int, owner_id: int, body: str, at: int) -> None:
    """Keep (or replace) one draft; forget drafts past their time, and a moderator's oldest
    beyond the per-owner cap, so opening forms in a loop cannot grow the table."""
    await tx.execute("DELETE FROM term_drafts WHERE saved_at < ?", (at - DRAFT_TTL,))
    await tx.execute("DELETE FROM term_drafts WHERE nonce = ?", (nonce,))
    await tx.execute(
        "INSERT INTO term_drafts (nonce, scope, owner_id, body, saved_at) VALUES (?, ?, ?, ?, ?)",
        (nonce, scope, owner_id, body, at),
    )
    # The one just saved always stays (saves within one second tie on saved_at).
    await tx.execute(
        "DELETE FROM term_drafts WHERE scope = ? AND owner_id = ? AND nonce <> ? AND nonce NOT IN"
        " (SELECT nonce FROM term_drafts WHERE scope = ? AND owner_id = ? AND nonce <> ?"
        " ORDER BY saved_at DESC, nonce LIMIT ?)",
        (scope, owner_id, nonce, scope, owner_id, nonce, DRAFTS_PER_OWNER - 1),
    )


async def draft(tx: Tx, *, nonce: str, scope: int, owner_id: int) -> str | None:
    """A draft's JSON, only for the server and moderator it was opened for."""
    row = await tx.fetchrow(
        "SELECT body FROM term_drafts WHERE nonce = ? AND scope = ? AND owner_id = ?",
        (nonce, scope, owner_id),
    )
    return str(row[0]) if row else None
