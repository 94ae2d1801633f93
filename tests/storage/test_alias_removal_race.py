"""An alias removed by two writes at once (review48, attack on left47 item 1): `/alias remove`
while another moderator's `/term remove` (or an import) takes the same alias with its term."""

from __future__ import annotations

import asyncio
from urllib.parse import parse_qsl, urlsplit

import asyncpg

from bot.glossary.server_terms import ServerTerm
from bot.term_storage import TermChange, change_terms
from tests.polling import eventually

from .conftest import Databases, FakeClock, OpenStore


async def test_an_alias_two_writes_remove_at_once_is_removed_and_logged_once(
    open_any: OpenStore,
    databases: Databases,
    location: str,
    postgres_only: None,
    clock: FakeClock,
) -> None:
    """PostgreSQL reads at READ COMMITTED: `/alias remove` read the alias while a term's
    removal (another process, mid-write) was deleting it, waited on that row, found it gone
    and still logged its own removal and said it removed it. The log then held two removals
    of one alias, and the newest (this one, "alone") hid that it went with its term. Now the
    write that deleted no row logs nothing and says there was no such alias."""
    store = await open_any()
    term = ServerTerm(
        id="t1", title="Zorblax", definition="Ours, for tests.", category="Fundamentals"
    )
    await change_terms(store, 1, lambda *_: (TermChange(put=(term,)), None), 7)
    await store.add_alias(1, "blorp", "blorp", "t1", 7)
    other = await asyncpg.connect(location)  # the term's removal, in another process
    now = int(clock.now.timestamp())  # its clock the store's (a log's newest is by time)
    try:
        removal = other.transaction()
        await removal.start()
        await other.execute("DELETE FROM terms WHERE scope = 1 AND id = 't1'")
        await other.execute("DELETE FROM aliases WHERE scope = 1 AND key = 'blorp'")
        await other.execute(
            "INSERT INTO audit_log (at, scope, actor_id, action, alias_key, before, after,"
            f" write_id) VALUES ({now}, 1, 7, 'alias_remove', 'blorp', 't1', NULL, 'w1')"
        )
        await other.execute(
            "INSERT INTO term_audit_log (at, scope, actor_id, action, term_id, before, after,"
            f" write_id) VALUES ({now}, 1, 7, 'term_remove', 't1', '{{}}', NULL, 'w1')"
        )
        removing = asyncio.create_task(store.remove_alias(1, "blorp", 8))
        schema = dict(parse_qsl(urlsplit(location).query))["application_name"]

        async def waits_on_the_row() -> bool:
            waiting = await databases.execute_admin(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                f" AND application_name = '{schema}'"
            )
            return bool(waiting)

        await eventually(waits_on_the_row, "the store's removal waits on the other's row")
        await removal.commit()
        assert await removing is None  # the other write removed it
    finally:
        await other.close()
    logged = await databases.execute_admin(
        f"SELECT count(*) FROM {dict(parse_qsl(urlsplit(location).query))['search_path']}"
        ".audit_log WHERE alias_key = 'blorp' AND action = 'alias_remove'"
    )
    assert logged == 1
    gone = await store.alias_removal(1, "blorp")
    assert gone is not None
    assert gone.term is not None  # with its term, as it went
    assert (gone.term.term_id, gone.term.actor_id) == ("t1", 7)
