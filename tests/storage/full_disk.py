"""A full disk, stood in for by SQLite's page limit on the bot's own write connection
(white-box): no small filesystem to mount, and what is already written stays readable."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import aiosqlite

    from bot.storage import Store

NO_LIMIT = 1073741823  # SQLite's own most pages: room again


class FullDisk:
    """The write connection of a SQLite `Store`, its page limit pinned at the pages it holds
    (`fill`) or lifted (`free`)."""

    def __init__(self, conn: aiosqlite.Connection, pages: int) -> None:
        self.conn, self.pages = conn, pages

    @classmethod
    async def of(cls, store: Store) -> FullDisk:
        """`store`'s write connection, at the pages its file holds now."""
        conn = store._backend.writer._conn
        assert conn is not None
        async with conn.execute("PRAGMA page_count") as cursor:
            row = await cursor.fetchone()
        assert row is not None
        return cls(conn, row[0])

    async def fill(self) -> None:
        """No page more than the file held when measured: a write needing one fails "full"."""
        await self.conn.execute(f"PRAGMA max_page_count = {self.pages}")

    async def free(self) -> None:
        await self.conn.execute(f"PRAGMA max_page_count = {NO_LIMIT}")
