"""What the bot remembers, in SQLite or PostgreSQL: lookup counts, misses, per-server aliases,
audit log.

Imports neither discord nor the search package: command handlers and the command line both talk
to `Store`, and alias text is validated and normalised before it gets here.
"""

from .backend import Migrate
from .errors import (
    NotAGlossaryDatabase,
    NotInTime,
    SchemaTooNew,
    ShardsTaken,
    StorageError,
    StorageUnavailable,
    StoreClosed,
    SuggestionDecided,
    TargetNotEmpty,
)
from .models import (
    ALIAS_CAP,
    DM_SCOPE,
    MAX_OPEN_SUGGESTIONS,
    OPERATOR_ACTOR,
    SUGGEST_COOLDOWN,
    AddAliasResult,
    AddAliasStatus,
    AliasCheck,
    AliasImport,
    AliasRecord,
    AliasRemoval,
    AuditAction,
    AuditRecord,
    Miss,
    Stats,
    StoredChange,
    StoredDraft,
    StoredRename,
    StoredTerm,
    Suggestion,
    SuggestStatus,
    TermAuditRecord,
)
from .periods import PERIODS, Period, period_start
from .sqlite.backup import backup_database
from .store import CopyReport, CountsAhead, Store

__all__ = [
    "ALIAS_CAP",
    "DM_SCOPE",
    "MAX_OPEN_SUGGESTIONS",
    "OPERATOR_ACTOR",
    "PERIODS",
    "SUGGEST_COOLDOWN",
    "AddAliasResult",
    "AddAliasStatus",
    "AliasCheck",
    "AliasImport",
    "AliasRecord",
    "AliasRemoval",
    "AuditAction",
    "AuditRecord",
    "CopyReport",
    "CountsAhead",
    "Migrate",
    "Miss",
    "NotAGlossaryDatabase",
    "NotInTime",
    "Period",
    "SchemaTooNew",
    "ShardsTaken",
    "Stats",
    "StorageError",
    "StorageUnavailable",
    "Store",
    "StoreClosed",
    "StoredChange",
    "StoredDraft",
    "StoredRename",
    "StoredTerm",
    "SuggestStatus",
    "Suggestion",
    "SuggestionDecided",
    "TargetNotEmpty",
    "TermAuditRecord",
    "backup_database",
    "period_start",
]
