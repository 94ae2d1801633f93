"""What the bot remembers, in SQLite: lookup counts, misses, per-server aliases, audit log.

Imports neither discord nor the search package: command handlers and the command line both talk
to `Store`, and alias text is validated and normalised before it gets here.
"""

from .backup import backup_database
from .errors import (
    NotAGlossaryDatabase,
    SchemaTooNew,
    StorageError,
    StorageUnavailable,
    StoreClosed,
)
from .models import (
    ALIAS_CAP,
    DM_SCOPE,
    OPERATOR_ACTOR,
    AddAliasResult,
    AddAliasStatus,
    AliasImport,
    AliasRecord,
    AuditAction,
    AuditRecord,
    Miss,
    Stats,
)
from .periods import PERIODS, Period, period_start
from .store import Store

__all__ = [
    "ALIAS_CAP",
    "DM_SCOPE",
    "OPERATOR_ACTOR",
    "PERIODS",
    "AddAliasResult",
    "AddAliasStatus",
    "AliasImport",
    "AliasRecord",
    "AuditAction",
    "AuditRecord",
    "Miss",
    "NotAGlossaryDatabase",
    "Period",
    "SchemaTooNew",
    "Stats",
    "StorageError",
    "StorageUnavailable",
    "Store",
    "StoreClosed",
    "backup_database",
    "period_start",
]
