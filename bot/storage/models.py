"""Plain records the store returns. No database or Discord types leak out of the store."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

# Direct messages have no guild; they count as one scope of their own.
DM_SCOPE = 0
# The actor recorded for changes made from the operators' command line.
OPERATOR_ACTOR = 0
# Aliases one server may define (issue 5).
ALIAS_CAP = 1000


class AddAliasStatus(StrEnum):
    ADDED = "added"
    ALREADY_EXISTS_SAME_ENTRY = "already_exists_same_entry"
    CONFLICT = "conflict"
    CAP_REACHED = "cap_reached"
    # The caller's check, run on the server's aliases as stored inside the write, refused it.
    REFUSED = "refused"
    # The server's own term it names was no longer stored at the write (removed meanwhile).
    TERM_GONE = "term_gone"
    # The server's terms changed after the caller read them to check the alias against (another
    # process wrote them): the check's glossary is no longer the server's.
    TERMS_CHANGED = "terms_changed"


class AuditAction(StrEnum):
    ALIAS_ADD = "alias_add"
    ALIAS_REMOVE = "alias_remove"
    ALIAS_IMPORT = "alias_import"


@dataclass(frozen=True, slots=True)
class AliasRecord:
    scope: int
    key: str  # normalised, what lookups match on
    text: str  # as the moderator typed it
    entry_id: str
    added_by: int
    added_at: datetime

    def to_json(self) -> dict[str, Any]:
        return {
            "guild_id": self.scope,
            "alias": self.text,
            "key": self.key,
            "entry_id": self.entry_id,
            "added_by": self.added_by,
            "added_at": self.added_at.isoformat(),
        }


@dataclass(frozen=True, slots=True)
class AddAliasResult:
    status: AddAliasStatus
    # The alias now stored under that key: the new one, or the one that was already there.
    # None only when the cap was reached.
    alias: AliasRecord | None
    # True when a recorded miss for this query was cleared by the new alias.
    cleared_miss: bool = False
    # Why the caller's check refused it (REFUSED only).
    reason: str | None = None

    @property
    def conflicting_entry_id(self) -> str | None:
        """The entry the alias already names, when the add was refused for naming another."""
        if self.status is AddAliasStatus.CONFLICT and self.alias is not None:
            return self.alias.entry_id
        return None


@dataclass(frozen=True, slots=True)
class AliasImport:
    scope: int
    key: str
    text: str
    entry_id: str


# Run inside an alias write, on the server's aliases as stored at that moment (normalised key ->
# entry id, this write's earlier additions included): why the alias must not be added, or None.
# Another process may have added a clashing spelling since the caller last read them.
AliasCheck = Callable[[AliasImport, Mapping[str, str]], str | None]


@dataclass(frozen=True, slots=True)
class Miss:
    query: str
    count: int  # within the period asked for
    first_seen: datetime  # ever, not only within the period
    last_seen: datetime

    def to_json(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "count": self.count,
            "first_seen": self.first_seen.isoformat(),
            "last_seen": self.last_seen.isoformat(),
        }


@dataclass(frozen=True, slots=True)
class AuditRecord:
    id: int
    at: datetime
    scope: int
    actor_id: int
    action: AuditAction
    alias_key: str
    before: str | None  # entry id the alias named before, None if it did not exist
    after: str | None  # entry id it names after, None if removed


@dataclass(frozen=True, slots=True)
class AliasRemoval:
    """An alias's last removal: when, and the term removed with it (its term log entry; None
    if the alias was removed alone)."""

    at: datetime
    term: TermAuditRecord | None


SUGGESTION_STATES = ("open", "accepted", "rejected")
MAX_OPEN_SUGGESTIONS = 50  # per server, waiting for a moderator
SUGGEST_COOLDOWN = 600  # seconds between two suggestions of one member in one server


class SuggestStatus(StrEnum):
    ADDED = "added"
    COOLDOWN = "cooldown"  # this member suggested a moment ago
    FULL = "full"  # the server's queue of open suggestions is at its cap


@dataclass(frozen=True, slots=True)
class Suggestion:
    id: int
    scope: int
    user_id: int
    title: str
    definition: str
    status: str  # open, accepted, rejected
    created_at: datetime


@dataclass(frozen=True, slots=True)
class TermAuditRecord:
    id: int
    at: datetime
    scope: int
    actor_id: int
    # term_add, term_edit, term_remove, term_import, term_rename (by the bot: the glossary gave
    # its id to an entry); suggestion_accept, suggestion_reject
    action: str
    term_id: str | None  # None: a rejected suggestion
    # The term as JSON before (None if it did not exist) and after (None if removed); for a
    # decision, the suggestion as JSON (id, user_id, title, definition) before, None after.
    before: str | None
    after: str | None


@dataclass(frozen=True, slots=True)
class StoredTerm:
    """One of a server's own terms as stored: its id and the term as JSON (the glossary layer's
    `ServerTerm`; checked before it gets here, opaque to the store)."""

    id: str
    body: str


@dataclass(frozen=True, slots=True)
class StoredChange:
    """A write of a server's terms: these put (added or replaced, by id), those ids removed,
    and the server's aliases with those keys removed with them (aliases of a removed term)."""

    put: tuple[StoredTerm, ...] = ()
    remove: tuple[str, ...] = ()
    drop_aliases: tuple[str, ...] = ()
    accepts: int | None = None  # a suggestion accepted as put[0], in the same write
    draft: StoredDraft | None = None  # the form that wrote it, kept as saved in the same write


@dataclass(frozen=True, slots=True)
class StoredDraft:
    """A term form's draft (its JSON) under its nonce, for the moderator it was opened for."""

    nonce: str
    owner_id: int
    body: str


@dataclass(frozen=True, slots=True)
class StoredRename:
    """A server term given another id (the glossary now gives its id to an entry of another
    concept): the term under its new id, and the server's other terms whose `related` named
    the old one, rewritten. The store moves the server's aliases and lookups of the old id."""

    old_id: str
    renamed: StoredTerm
    related: tuple[StoredTerm, ...] = ()


@dataclass(frozen=True, slots=True)
class Stats:
    scope: int | None  # None: every server together
    since: datetime | None
    total_lookups: int
    top_terms: list[tuple[str, int]]
    top_misses: list[Miss]
    alias_count: int
    term_count: int  # the server's own terms (`/term`)
    suggestions: dict[str, int]  # members' suggestions by status: open, accepted, rejected

    def to_json(self) -> dict[str, Any]:
        return {
            "guild_id": self.scope,
            "since": self.since.isoformat() if self.since else None,
            "total_lookups": self.total_lookups,
            "top_terms": [{"entry_id": term, "count": n} for term, n in self.top_terms],
            "top_misses": [miss.to_json() for miss in self.top_misses],
            "alias_count": self.alias_count,
            "term_count": self.term_count,
            "suggestions": dict(self.suggestions),
        }
