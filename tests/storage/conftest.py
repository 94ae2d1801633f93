"""Fixtures for the storage tests: real SQLite files in tmp_path, real PostgreSQL schemas when
TEST_DATABASE_URL is set, an injectable clock."""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import asyncpg
import pytest

from bot.glossary import Glossary, load_glossary
from bot.search import SearchIndex
from bot.storage import Store
from tests.conftest import TEST_DATABASE_URL

START = datetime(2025, 1, 15, 12, 30, tzinfo=UTC)


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self, now: datetime = START) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


OpenStore = Callable[..., Awaitable[Store]]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(scope="module")
def bundled() -> tuple[Glossary, SearchIndex]:
    """The bundled glossary and its index, once a module (the server cache's tests need both)."""
    glossary = load_glossary()
    return glossary, SearchIndex.build(glossary)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "glossary-bot.db"


@asynccontextmanager
async def store_opener(default: str | Path, clock: FakeClock) -> AsyncIterator[OpenStore]:
    """Opens stores (on `default` unless told; no background flusher unless asked) and closes
    them all when the block ends."""
    stores: list[Store] = []

    async def _open(where: str | Path | None = None, **options: Any) -> Store:
        options.setdefault("flush_interval", None)
        options.setdefault("clock", clock)
        store = await Store.open(where or default, **options)
        stores.append(store)
        return store

    try:
        yield _open
    finally:
        for store in stores:
            await store.close()


@pytest.fixture
async def open_store(db_path: Path, clock: FakeClock) -> AsyncIterator[OpenStore]:
    """Opens stores on the test's SQLite file."""
    async with store_opener(db_path, clock) as opener:
        yield opener


@pytest.fixture
async def sqlite_store(open_store: OpenStore) -> Store:
    """A store on a SQLite file, for what only SQLite has (connections, pragmas, the file)."""
    return await open_store()


@pytest.fixture
async def store(open_any: OpenStore) -> Store:
    """A store on either backend: a test using it (and not `db_path`) is part of the contract
    suite both backends must pass."""
    return await open_any()


def query(path: Path, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Read the file with a connection of its own: what is really on disk."""
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def stored_lookups(path: Path, scope: int | None = None) -> int:
    if scope is None:
        return int(query(path, "SELECT coalesce(sum(count), 0) FROM lookups")[0][0])
    sql = "SELECT coalesce(sum(count), 0) FROM lookups WHERE scope = ?"
    return int(query(path, sql, (scope,))[0][0])


def file_state(path: Path) -> tuple[bytes, int]:
    """Contents and modification time: what "left untouched" means."""
    return path.read_bytes(), path.stat().st_mtime_ns


def write_file(path: Path, data: bytes = b"") -> None:
    path.write_bytes(data)


def names_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# -- both backends: the contract suite ---------------------------------------------------------

# The PostgreSQL half of the contract suite (left out without TEST_DATABASE_URL: tests/conftest.py).
# Each test gets a schema of its own in that database, dropped afterwards.


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" not in metafunc.fixturenames:
        return
    if "db_path" in metafunc.fixturenames:  # looks at the SQLite file itself
        metafunc.parametrize("backend", ["sqlite"])
    elif "postgres_only" in metafunc.fixturenames:
        metafunc.parametrize("backend", ["postgres"])
    else:
        metafunc.parametrize("backend", ["sqlite", "postgres"])


@pytest.fixture
def postgres_only() -> None:
    """Requested by a test of what only PostgreSQL has."""


def with_search_path(url: str, schema: str) -> str:
    """The URL with every connection's search_path set to `schema` (asyncpg passes unknown
    query parameters on as server settings)."""
    parts = urlsplit(url)
    query_items = [
        (k, v) for k, v in parse_qsl(parts.query) if k not in ("search_path", "application_name")
    ]
    # The schema's name as the connections' name too: a test can find (and end) them.
    query_items += [("search_path", schema), ("application_name", schema)]
    return urlunsplit(parts._replace(query=urlencode(query_items)))


@asynccontextmanager
async def fresh_schema(url: str, prefix: str = "test") -> AsyncIterator[str]:
    """A new, empty schema in the PostgreSQL database at `url` for the block (dropped after):
    the URL whose connections use it. For a whole bot (processes, a load test) on one schema."""
    schema = f"{prefix}_{uuid.uuid4().hex[:16]}"
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
        yield with_search_path(url, schema)
    finally:
        await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        await admin.close()


class Databases:
    """Fresh, empty databases of one backend: SQLite files, or PostgreSQL schemas."""

    def __init__(self, backend: str, folder: Path) -> None:
        self.backend = backend
        self._folder = folder
        self._schemas: list[str] = []
        self._files = 0

    async def new(self) -> str:
        if self.backend == "sqlite":
            self._files += 1
            name = "glossary-bot.db" if self._files == 1 else f"db{self._files}.sqlite3"
            return str(self._folder / name)
        schema = f"test_{uuid.uuid4().hex[:16]}"
        self._schemas.append(schema)
        await self.execute_admin(f"CREATE SCHEMA {schema}")
        return with_search_path(TEST_DATABASE_URL, schema)

    async def execute(self, location: str, sql: str) -> None:
        """Run one statement of this backend's SQL outside the store (to set up a bad case)."""
        if self.backend == "sqlite":
            conn = sqlite3.connect(location, isolation_level=None)
            try:
                conn.execute(sql)
            finally:
                conn.close()
            return
        pg = await asyncpg.connect(location)
        try:
            await pg.execute(sql)
        finally:
            await pg.close()

    async def execute_admin(self, sql: str) -> Any:
        """Run `sql` on the test database itself; the first value of its result."""
        pg = await asyncpg.connect(TEST_DATABASE_URL)
        try:
            return await pg.fetchval(sql)
        finally:
            await pg.close()

    async def drop_all(self) -> None:
        for schema in self._schemas:
            await self.execute_admin(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


@pytest.fixture
async def databases(backend: str, tmp_path: Path) -> AsyncIterator[Databases]:
    made = Databases(backend, tmp_path)
    yield made
    await made.drop_all()


@pytest.fixture
async def location(databases: Databases) -> str:
    return await databases.new()


@pytest.fixture
async def open_any(location: str, clock: FakeClock) -> AsyncIterator[OpenStore]:
    """Opens stores on the test's database, of either backend."""
    async with store_opener(location, clock) as opener:
        yield opener


def bot_database(
    databases: Databases, location: str, tmp_path: Path
) -> tuple[Path, dict[str, str]]:
    """What `BotProcess` needs to run the bot on `location`: the SQLite path, and the settings
    (DATABASE_URL on PostgreSQL, where the SQLite path is set too and must stay unused)."""
    if databases.backend == "sqlite":
        return Path(location), {}
    return tmp_path / "unused.db", {"DATABASE_URL": location}
