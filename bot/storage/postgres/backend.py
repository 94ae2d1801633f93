"""PostgreSQL (`DATABASE_URL=postgresql://...`): one database shared by several bot processes.

A small connection pool; reads see one snapshot (REPEATABLE READ, read-only), writes of this
process run one at a time (as SQLite's single writer does), so a flush and an alias change
never interleave within a process. Counts from several processes add up: every write is an
increment (`ON CONFLICT ... DO UPDATE SET count = count + ...`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import shlex
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from functools import lru_cache
from typing import Any, TypeVar
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import asyncpg

from bot.dburl import each_host, url_problem, without_password

from ..backend import ANSWER_BY, Backend, Body, Migrate, Row, Tx, shielded
from ..errors import ShardsTaken, StorageError, StorageUnavailable, not_in_time
from .claims import KEEPALIVES, take_claims
from .migrate import VERSION_TABLE, Connection, apply_migrations, latest_version

T = TypeVar("T")

# The triggers that move the counters and the servers' versions on every change (migrations 1, 3
# and 9): `pg_restore` makes them after loading every table's rows.
VERSION_TRIGGERS = (
    "aliases_changed",
    "terms_changed",
    "aliases_changed_servers_inserted",
    "aliases_changed_servers_updated",
    "aliases_changed_servers_deleted",
    "terms_changed_servers_inserted",
    "terms_changed_servers_updated",
    "terms_changed_servers_deleted",
)

log = logging.getLogger(__name__)

# Statement classes (the first two characters of SQLSTATE) that mean "not now", not "wrong":
# connection, insufficient resources, operator intervention, lock not available, rollbacks.
_TRANSIENT_CLASSES = {"08", "53", "57", "55", "40"}
_REASONS = {  # " at {location}" is what `said_of` leaves out for lines that name it already
    "25006": "the database at {location} is read-only",
    "53100": "the database's disk at {location} is full",
}
# "permission denied for schema glossary", "... for table lookups": what to grant, and on what.
_DENIED = re.compile(r"permission denied for (schema|table) (\S+)")
# A flush writes one row per server, entry and hour in the batch: time enough for a big one.
COMMAND_TIMEOUT = 60.0
# What the driver raises when a statement fails or its connection breaks. InternalClientError
# is what a pooled connection the server has just ended (a restart) raises as the next
# statement begins ("cannot switch to state 15; another operation (2) is in progress").
_DRIVER_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError)
# Seconds between tries to claim this process's shards again after their session ended.
RECLAIM_EVERY = 2
# A session lock per IDENTIFY bucket, one set per schema (like the migrations' lock). It waits
# for whichever process holds it, however long: shards identify one after another.
_IDENTIFY_LOCK = (
    "SELECT pg_advisory_lock(hashtext('glossary-bot identify ' || current_schema()), $1)"
)


@lru_cache(maxsize=256)
def numbered(sql: str) -> str:
    """`?` placeholders as PostgreSQL's `$1, $2, ...` (the queries never quote a `?`)."""
    counter = iter(range(1, 1 + sql.count("?")))
    return re.sub(r"\?", lambda _: f"${next(counter)}", sql)


class PostgresTx:
    """`Tx` over an asyncpg connection inside a transaction."""

    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return [tuple(row) for row in await self._conn.fetch(numbered(sql), *params)]

    async def fetchrow(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        row = await self._conn.fetchrow(numbered(sql), *params)
        return None if row is None else tuple(row)

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        status = await self._conn.execute(numbered(sql), *params)  # e.g. "DELETE 3", "INSERT 0 1"
        last = status.rsplit(" ", 1)[-1]
        return int(last) if last.isdigit() else 0

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        batch = list(rows)
        if batch:
            await self._conn.executemany(numbered(sql), batch)


class PostgresBackend(Backend):
    shared = True

    def __init__(self, url: str, pool: asyncpg.Pool) -> None:
        # Use `PostgresBackend.open`: it migrates the schema.
        self.location = without_password(url)
        self._url = url
        self._pool = pool
        self._write_lock = asyncio.Lock()
        self._cut_off: asyncio.TimerHandle | None = None  # ends every session at a stop's deadline
        self._claims_lost: str | None = None  # why the shard claims are not held now

    @classmethod
    async def open(cls, url: str, *, connect_timeout: float, migrate: Migrate) -> PostgresBackend:
        location = without_password(url)
        if problem := url_problem(url):
            raise StorageError(f"cannot use the database URL {location}: {problem}")
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=4,
                timeout=max(connect_timeout, 1.0),
                command_timeout=COMMAND_TIMEOUT,
            )
        except Exception as exc:
            said = as_storage_error(exc, location)
            if isinstance(exc, OSError | TimeoutError) and (hosts := each_host(url)):
                # asyncpg keeps only the last host's error: each is asked again, at once.
                said = type(said)(await _each_refusal(hosts, location, connect_timeout))
            raise said from exc
        try:
            async with pool.acquire() as conn:
                applied = await apply_migrations(conn, location, migrate=migrate)
        except BaseException as exc:
            await pool.close()
            if isinstance(exc, StorageError) or not isinstance(exc, Exception):
                raise
            raise as_storage_error(exc, location) from exc
        if applied:
            log.info("database %s migrated to schema version %d", location, applied[-1])
        return cls(url, pool)

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[Any]:
        """A connection of the pool. A new one that has no answer by the connect timeout (a
        database that hangs, a network dropping packets: every connection in use waits on it)
        is said so, not as a statement cut off at COMMAND_TIMEOUT, as `_guarded` reads a bare
        TimeoutError. Within a moderator's change (`ANSWER_BY`), waited for until its bound."""
        bound = ANSWER_BY.get()
        try:
            if bound is None:
                conn = await self._pool.acquire()
            else:
                left = bound[0] - asyncio.get_running_loop().time()
                if left <= 0:
                    raise not_in_time(self.location, bound[1])
                try:
                    conn = await self._pool.acquire(timeout=left)
                except TimeoutError as exc:
                    raise not_in_time(self.location, bound[1]) from exc
        except TimeoutError as exc:
            if str(exc):
                raise
            raise StorageUnavailable(
                f"cannot reach the database at {self.location}: a new connection had no answer "
                "in time (the database, or the network to it, hangs)"
            ) from exc
        try:
            yield conn
        finally:
            await self._pool.release(conn)

    @contextlib.asynccontextmanager
    async def _write_turn(self) -> AsyncIterator[None]:
        """This process's one write at a time; within a moderator's change, waited for until
        its bound (behind a flush that hangs: told at once that nothing was written)."""
        bound = ANSWER_BY.get()
        if bound is None:
            await self._write_lock.acquire()
        else:
            try:
                async with asyncio.timeout_at(bound[0]):
                    await self._write_lock.acquire()
            except TimeoutError as exc:
                raise not_in_time(self.location, bound[1]) from exc
        try:
            yield
        finally:
            self._write_lock.release()

    async def read(self, body: Body[T]) -> T:
        async def run() -> T:
            async with self._connection() as conn, _Cut(conn, self.location) as cut:
                try:
                    async with conn.transaction(isolation="repeatable_read", readonly=True):
                        return await body(PostgresTx(conn))
                except Exception as exc:
                    cut.raise_if_cut(exc)
                    raise

        return await self._guarded(run())

    async def write(
        self, body: Body[T], *, on_commit: Callable[[T], None] | None = None, probe: bool = False
    ) -> T:
        # A probe is written as any write: in PostgreSQL an unchanged row is a new version too,
        # which needs room.
        async def run() -> T:
            async with (
                self._write_turn(),
                self._connection() as conn,
                _Cut(conn, self.location) as cut,
            ):
                try:
                    transaction = conn.transaction()
                    await transaction.start()
                    try:
                        result = await body(PostgresTx(conn))
                    except BaseException:
                        if not cut.fired:
                            await transaction.rollback()
                        raise
                    cut.committing = True
                    await transaction.commit()
                except Exception as exc:
                    cut.raise_if_cut(exc)
                    raise
                # Only once the COMMIT is answered (no wait between: the cut cannot come): a
                # change cut off never reaches a cache.
                if on_commit is not None:
                    on_commit(result)
                return result

        return await self._guarded(run())

    async def _guarded(self, transaction: Any) -> T:
        try:
            result: T = await shielded(transaction)
        except StorageError:
            raise
        except (*_DRIVER_ERRORS, OSError, TimeoutError) as exc:
            raise as_storage_error(exc, self.location, in_statement=True) from exc
        return result

    def identify_slot(self, bucket: int) -> contextlib.AbstractAsyncContextManager[None]:
        """The bucket's advisory lock: a process killed while holding it lets the others go on
        at once (see `_holding`)."""
        return self._holding(lambda conn: conn.execute(_IDENTIFY_LOCK, bucket))

    @contextlib.asynccontextmanager
    async def claim_shards(
        self,
        shard_ids: Sequence[int] | None,
        *,
        holder: str,
        wait: float,
        shard_count: int | None = None,
        application_id: int | None = None,
        turned: Callable[[], None] | None = None,
    ) -> AsyncIterator[None]:
        """The shards' claims (see `claims`), on a session named `holder` for the others. A
        session ended underneath (the server restarted) takes the claims with it: said loudly,
        since overlapping SHARD_IDS are not refused meanwhile, and claimed again on a new
        session as soon as the database answers."""
        settings = {**KEEPALIVES, "application_name": holder[:63]}
        lost = asyncio.Event()
        held: list[asyncpg.Connection] = []

        def ended(_: object) -> None:
            lost.set()

        async def claim(wait: float) -> None:
            try:
                conn = await _connected(self._url, timeout=10.0, server_settings=settings)
            except Exception as exc:
                raise as_storage_error(exc, self.location) from exc
            try:
                await take_claims(
                    conn,
                    shard_ids,
                    wait=wait,
                    shard_count=shard_count,
                    application_id=application_id,
                )
            except BaseException as exc:
                conn.terminate()
                if isinstance(exc, (*_DRIVER_ERRORS, OSError)):
                    raise as_storage_error(exc, self.location) from exc
                raise
            conn.add_termination_listener(ended)
            held[:] = [conn]

        await claim(wait)
        # A process of the whole bot (no SHARD_IDS) claims it alone: any second process is what
        # goes unrefused, not "overlapping SHARD_IDS".
        others = (
            "a process with overlapping SHARD_IDS"
            if shard_ids is not None
            else "another process for this bot on this database"
        )
        keeper = asyncio.create_task(self._keep_claims(claim, lost, others, turned))
        try:
            yield
        finally:
            keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await keeper
            self._claims_lost = None
            for conn in held:  # let go, without calling it a loss
                conn.remove_termination_listener(ended)
                conn.terminate()

    def claims_lost(self) -> str | None:
        return self._claims_lost

    async def _keep_claims(
        self,
        claim: Callable[[float], Awaitable[None]],
        lost: asyncio.Event,
        others: str,
        turned: Callable[[], None] | None,
    ) -> None:
        """Claim the shards again each time their session ends, every RECLAIM_EVERY seconds
        until the database answers; a process that took them meanwhile is said once. `others`:
        which processes go unrefused meanwhile. `claims_lost` says why until they are held
        again (`health` is unhealthy meanwhile), `turned` told of each change."""

        def losing(why: str | None) -> None:
            if why != self._claims_lost:
                self._claims_lost = why
                if turned is not None:
                    turned()

        while True:
            await lost.wait()
            losing(
                "the database session holding this process's shard claims has ended: "
                f"{others} is not refused until they are claimed again"
            )
            log.error(
                "the database session holding this process's shard claims has ended (the server "
                "restarted, or someone ended it): %s is not refused until they are claimed "
                "again (tried every %d s)",
                others,
                RECLAIM_EVERY,
            )
            told = False
            while True:
                await asyncio.sleep(RECLAIM_EVERY)
                lost.clear()  # before the new session's listener, which sets it if that ends too
                try:
                    await claim(0.0)
                except ShardsTaken as exc:
                    if not told:
                        log.error("cannot claim this process's shards again: %s", exc)
                        told = True
                    losing(f"cannot claim this process's shards again: {exc}")
                    continue
                except StorageError:
                    continue  # the database is still away: its pool's lines say so
                log.info("shard claims taken again: %s is refused again", others)
                losing(None)
                break

    @contextlib.asynccontextmanager
    async def _holding(
        self,
        take: Callable[[asyncpg.Connection], Awaitable[object]],
        settings: dict[str, str] | None = None,
    ) -> AsyncIterator[None]:
        """Session locks taken by `take` on a connection of its own (not the pool's), held
        while the block runs: the session ends with it (even when cancelled), and the locks
        with the session, however the process ends."""
        try:
            conn = await asyncpg.connect(self._url, timeout=10.0, server_settings=settings)
        except Exception as exc:
            raise as_storage_error(exc, self.location) from exc
        try:
            try:
                await take(conn)
            except (*_DRIVER_ERRORS, OSError) as exc:
                raise as_storage_error(exc, self.location) from exc
            yield
        finally:
            conn.terminate()

    async def ensure_in_place(self) -> None:
        return  # a server database does not move underneath its clients

    async def backup(self, dest: str | os.PathLike[str]) -> None:
        raise StorageError(backup_advice(self.location, os.fspath(dest)))

    def give_up_at(self, deadline: float) -> None:
        # A statement waiting for a lock waits up to COMMAND_TIMEOUT (a minute). Ending the
        # sessions is what cuts a wait already under way; the server rolls their work back.
        if self._cut_off is not None:
            self._cut_off.cancel()
        self._cut_off = asyncio.get_running_loop().call_at(deadline, self._pool.terminate)

    async def schema_versions(self) -> tuple[int, int]:
        async def version(tx: Tx) -> int:
            row = await tx.fetchrow(f"SELECT version FROM {VERSION_TABLE}")
            return int(row[0]) if row else 0

        return await self.read(version), latest_version()

    async def changes_tracked(self) -> bool:
        async def present(tx: Tx) -> int:
            row = await tx.fetchrow(
                "SELECT count(*) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid"
                " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema()"
                f" AND t.tgname IN ({', '.join('?' for _ in VERSION_TRIGGERS)})",
                VERSION_TRIGGERS,
            )
            return int(row[0]) if row else 0

        return await self.read(present) == len(VERSION_TRIGGERS)

    async def close(self) -> None:
        if self._cut_off is None:
            await self._pool.close()
            return
        # A graceful close waits for every connection in use to be given back: not past the
        # deadline, when the timer ends them all anyway.
        deadline = self._cut_off.when()
        try:
            async with asyncio.timeout_at(deadline):
                await self._pool.close()
        except TimeoutError:
            self._pool.terminate()
        self._cut_off.cancel()


class _Cut:
    """Within a moderator's change (`ANSWER_BY`): the connection ended at its bound, which ends
    whatever statement waits on it (a database that hangs answers nothing, and asyncpg's own
    cancel would wait on a new connection to it). PostgreSQL rolls back a transaction whose
    connection is gone before its COMMIT arrives: `committing` tells the two cases apart."""

    def __init__(self, conn: Any, location: str) -> None:
        self._conn, self._location = conn, location
        self._timer: asyncio.TimerHandle | None = None
        self._bound = ANSWER_BY.get()
        self.fired = False
        self.committing = False

    async def __aenter__(self) -> _Cut:
        if self._bound is not None:
            self._timer = asyncio.get_running_loop().call_at(self._bound[0], self._fire)
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._timer is not None:
            self._timer.cancel()

    def _fire(self) -> None:
        self.fired = True
        self._conn.terminate()

    def raise_if_cut(self, exc: BaseException) -> None:
        if self.fired and self._bound is not None:
            raise not_in_time(self._location, self._bound[1], committing=self.committing) from exc


async def _connected(url: str, **kwargs: Any) -> asyncpg.Connection:
    """`asyncpg.connect`, left to finish when its caller is cancelled (a stop as the database
    opens) and then let go: a connect cancelled halfway leaves asyncpg's TLS probe holding an
    error nobody reads, which asyncio logs as an ERROR ("Future exception was never
    retrieved") with its traceback."""
    connecting = asyncio.ensure_future(asyncpg.connect(url, **kwargs))
    try:
        return await asyncio.shield(connecting)
    except asyncio.CancelledError:
        connecting.add_done_callback(_let_go)
        raise


def _let_go(connecting: asyncio.Future[asyncpg.Connection]) -> None:
    if connecting.cancelled():
        return
    if connecting.exception() is None:
        connecting.result().terminate()


# The hosts of a list named one by one when none could be reached; the rest are counted.
HOSTS_NAMED = 5


async def _each_refusal(hosts: list[tuple[str, str]], location: str, seconds: float) -> str:
    """ "cannot reach the database at `location`", with what each of its `hosts` (as written,
    and the URL naming it alone) says when asked again: all at once, within `seconds`."""
    named = hosts[:HOSTS_NAMED]

    async def asked(url: str) -> str:
        try:
            connection = await asyncio.wait_for(_connected(url), max(seconds, 1.0))
        except TimeoutError:
            return "no answer in time"
        except ConnectionRefusedError:
            return "refused the connection"
        except OSError as exc:
            return exc.strerror or str(exc) or type(exc).__name__
        except Exception as exc:  # it answered: its refusal in the database's words
            return str(exc) or type(exc).__name__
        await connection.close()
        return "answers now"

    said = await asyncio.gather(*(asked(url) for _, url in named))
    each = "; ".join(f"{host}: {why}" for (host, _), why in zip(named, said, strict=True))
    more = len(hosts) - len(named)
    if more:
        each += f"; and {more} more host{'s' if more > 1 else ''}"
    return f"cannot reach the database at {location}: no host of its list could be used ({each})"


def backup_advice(location: str, dest: str) -> str:
    """What to run instead: PostgreSQL's own tool makes the consistent copy.

    A `search_path` in the URL is a server setting to asyncpg but unknown to libpq's pg_dump:
    it becomes `--schema`.
    """
    parts = urlsplit(location)
    settings = parse_qsl(parts.query)
    schemas = [value for key, value in settings if key == "search_path"]
    url = urlunsplit(
        parts._replace(query=urlencode([(k, v) for k, v in settings if k != "search_path"]))
    )
    options = [f"--schema={shlex.quote(schema)}" for schema in schemas]
    command = " ".join(
        ["pg_dump", "--format=custom", f"--file={shlex.quote(dest)}", *options, shlex.quote(url)]
    )
    return (
        f"the database is PostgreSQL: back it up with `{command}` "
        "(the password from PGPASSWORD or ~/.pgpass; pg_restore reads the file back)"
    )


def restore_advice(location: str, backup: str, *, sqlite: bool = False) -> str:
    """What to run instead: pg_restore reads back what `backup_advice`'s pg_dump wrote; a
    SQLite file (`sqlite`: a backup from before the move to PostgreSQL) is copied in by
    `migrate-db`, which pg_restore cannot read."""
    if sqlite:
        command = (
            f"glossary-bot migrate-db --from {shlex.quote(backup)} --to {shlex.quote(location)}"
        )
        return (
            f"{backup} is a SQLite database, which cannot be restored into PostgreSQL: copy it "
            f"in with `{command}` (the bots stopped; it copies into an empty database, --force "
            "adds to one holding data)"
        )
    url = urlunsplit(urlsplit(location)._replace(query=""))
    command = f"pg_restore --clean --if-exists --dbname={shlex.quote(url)} {shlex.quote(backup)}"
    return (
        f"the database is PostgreSQL: stop the bots, then restore with `{command}` "
        "(the password from PGPASSWORD or ~/.pgpass)"
    )


def permission_denied(exc: BaseException, location: str) -> str:
    """A refused privilege in the operator's terms: the role, the server's words (the schema or
    table) and the grant that fixes it. A revoked grant may come back: not a fault of the URL."""
    role = urlsplit(location).username or "the URL's role"
    denied = _DENIED.search(str(exc))
    if denied is None:
        grant = f"grant it to {role}"
    elif denied[1] == "schema":  # the first start makes the tables there
        grant = f"as the schema's owner: GRANT CREATE ON SCHEMA {denied[2]} TO {role}"
    else:
        grant = (
            f"as its owner: GRANT SELECT, INSERT, UPDATE, DELETE ON {denied[2]} TO {role}, and "
            "the same on the bot's other tables: ON ALL TABLES IN SCHEMA name"
        )
    return f"the role {role} may not do this at {location}: {exc} ({grant})"


def as_storage_error(
    exc: BaseException, location: str, *, in_statement: bool = False
) -> StorageError:
    """Translate a driver exception into one a command handler can show to a moderator.
    `in_statement`: raised by a transaction's statements, where a timeout saying nothing is
    most likely a statement cut off at COMMAND_TIMEOUT, not a host that never answered."""
    state = getattr(exc, "sqlstate", None)
    if isinstance(state, str):
        if state in _REASONS:
            return StorageUnavailable(_REASONS[state].format(location=location))
        if state == "42501":  # insufficient_privilege: the role in the URL lacks a grant
            return StorageUnavailable(permission_denied(exc, location))
        if state == "42P01":  # undefined_table: the schema dropped under the running bot
            return StorageUnavailable(
                f"the tables of the database at {location} are gone (its schema dropped, or "
                f"the database dropped and made again): {exc}. Restart the bot to make them "
                "again, empty; what they held comes back only from a backup (pg_restore)"
            )
        if state[:2] in _TRANSIENT_CLASSES:
            return StorageUnavailable(f"the database at {location} cannot be used now: {exc}")
        if state[:2] == "28":  # invalid authorization: a wrong user or password in the URL
            return StorageError(f"cannot log in to the database at {location}: {exc}")
        return StorageError(f"database error at {location}: {exc}")
    if isinstance(exc, TimeoutError) and not str(exc) and in_statement:
        return StorageUnavailable(
            f"the database at {location} did not finish a statement within {COMMAND_TIMEOUT:g} s "
            "(COMMAND_TIMEOUT in bot/storage/postgres/backend.py, the longest any statement may "
            "take): it is overloaded, or the statement too large, or the connection was dropped "
            "on the way"
        )
    if isinstance(exc, TimeoutError) and not str(exc):
        # A host that drops connections (a firewall, a wrong address) says nothing at all.
        return StorageUnavailable(
            f"cannot reach the database at {location}: no answer in time (a firewall dropping "
            "the connection, or the wrong host or port)"
        )
    if isinstance(exc, asyncpg.InternalClientError):
        return StorageUnavailable(
            f"the connection to the database at {location} was ended by the server (restarted, "
            f"or the session ended) as a statement began: {exc}"
        )
    if isinstance(exc, OSError | TimeoutError | asyncpg.InterfaceError):
        return StorageUnavailable(
            f"cannot reach the database at {location}: {exc or type(exc).__name__}"
        )
    return StorageError(f"database error at {location}: {exc}")
