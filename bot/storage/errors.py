"""What the store raises. Every failure of the database is a `StorageError`; `SuggestionDecided`
is a write refused for what it found (nothing written)."""

from __future__ import annotations


class StorageError(Exception):
    """Base class: the store could not do what was asked."""


class SuggestionDecided(Exception):
    """A term write that accepts a suggestion found it decided already (by another moderator or
    process): the whole write was undone."""

    def __init__(self, suggestion_id: int) -> None:
        super().__init__(f"suggestion {suggestion_id} was already decided")
        self.suggestion_id = suggestion_id


class SchemaTooNew(StorageError):
    """The database was written by a newer Glossary Bot; it is left untouched."""

    def __init__(self, path: str, found: int, supported: int) -> None:
        super().__init__(
            f"{path} has schema version {found}, but this Glossary Bot knows versions up to "
            f"{supported}. Upgrade the bot (or restore an older backup); "
            "the database was not modified."
        )
        self.found = found
        self.supported = supported


class NotAGlossaryDatabase(StorageError):
    """The file is not SQLite, or is some other application's database."""


class StorageUnavailable(StorageError):
    """The database cannot be written (or read) right now: read-only, full, locked, I/O error."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class NotInTime(StorageUnavailable):
    """A moderator's change the database did not answer within its bound (`WRITE_WAIT`): cut
    off, its connection ended. `written` is False where it certainly wrote nothing (it never
    reached COMMIT: a transaction cut off before it is rolled back, as the server finds the
    connection gone) and None where COMMIT was sent and not answered: the server may have
    committed it, and the next check of the server's version shows it if so."""

    def __init__(self, reason: str, *, written: bool | None = False) -> None:
        super().__init__(reason)
        self.written = written


def not_in_time(location: str, seconds: float, *, committing: bool = False) -> NotInTime:
    """What a change cut off at its bound says (`NotInTime`), to the log and the operator."""
    if committing:
        return NotInTime(
            f"the database at {location} did not confirm a change within {seconds:g} s "
            "(WRITE_WAIT): it may or may not have been written (the database, or the network "
            "to it, hangs)",
            written=None,
        )
    return NotInTime(
        f"the database at {location} did not take a change within {seconds:g} s (WRITE_WAIT), "
        "so nothing was written (the database, or the network to it, hangs or is locked)"
    )


class DatabaseLost(StorageUnavailable):
    """The database file at the configured path is gone or was replaced by one that cannot be
    used. The backend has said so in the log, once: callers refuse the write without a line of
    their own."""


class StoreClosed(StorageError):
    """The store was used after `close()`."""

    def __init__(self) -> None:
        super().__init__("the store is closed")


class TargetNotEmpty(StorageError):
    """A copy was asked into a database that already holds data."""


class TargetFailed(StorageError):
    """A copy's target could not be written (a full disk, say): nothing was written there."""


class ShardsTaken(StorageError):
    """Another process on the same database already runs some of this process's shards (or
    the whole bot): `shard` is the first shard found taken (None: the whole bot, or no shard of
    it), `holders` describes the processes that hold it; `count`, when set, is their
    SHARD_COUNT, another than this process's; `application`, when set, is this bot's
    application id, run by `holders` on another schema of the database."""

    def __init__(
        self,
        shard: int | None,
        holders: list[str],
        *,
        count: int | None = None,
        application: int | None = None,
    ) -> None:
        whom = ", ".join(holders) or "another process"
        if application is not None:
            super().__init__(f"application {application} runs in another schema, by {whom}")
        elif count is not None:
            super().__init__(f"SHARD_COUNT {count} is run by {whom}")
        else:
            super().__init__(f"shard {shard} is taken by {whom}")
        self.shard = shard
        self.holders = holders
        self.count = count
        self.application = application


def said_of(exc: BaseException, location: str) -> str:
    """The error's words for a line that names `location` already (`check --db`'s, the bot's
    "cannot open the database DATABASE_URL=…"): the backends name the database in their words,
    for the command lines that print them alone, and the URL is not said twice."""
    text = str(exc)
    for named in (f" at {location}", f" URL {location}"):
        text = text.replace(named, "")
    return f"it {text.removeprefix(f'{location} ')}" if text.startswith(f"{location} ") else text
