"""review55's attacks on wait50 (tests/outsider/PLAN.md, "Attacks on wait50 (review55)")."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from bot import metrics
from bot.discord_app.cogs.moderators import STORAGE_DOWN
from bot.heartbeat import check_heartbeat
from bot.storage import CountsAhead, Migrate, Store
from tests.conftest import TEST_DATABASE_URL
from tests.discord_app.helpers import buttons
from tests.fake_discord import FakeDiscord
from tests.ops.test_metrics import metrics_port, scrape
from tests.outsider.test_shards49 import (
    _forwarding,
    _free_port,
    _refusing_logins,
    at_port,
    glossary_lab,
)
from tests.polling import eventually
from tests.resilience.botproc import BotProcess
from tests.storage.conftest import fresh_schema

ZORBLAX = {"title": "Zorblax", "definition": "The nightly job that re-ranks documents."}
EDITED = {"definition": "The nightly job that re-ranks every stored document by freshness."}


def _sample(name: str) -> float:
    value = metrics.REGISTRY.get_sample_value(name, {})
    return 0.0 if value is None else value


def _waiting() -> float:
    """What the dashboard's "waiting to be written" panel shows: buffered minus flushed."""
    return _sample("glossary_lookups_buffered_total") - _sample("glossary_lookups_flushed_total")


async def test_lookups_counted_during_the_wait_join_the_metrics_only_when_handed_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """wait50 left: lookups counted while the bot waited for its database went into
    `glossary_lookups_buffered_total` at once, and a wait given up left them there for good,
    never flushed (the dashboard's buffered - flushed showed them waiting for ever). They are
    now counted there when the store takes them, to be written with its next flush."""
    monkeypatch.setattr(Store, "observer", metrics.StoreMetrics())
    start = _waiting()
    given_up = CountsAhead()
    for _ in range(3):
        given_up.record_lookup(1, "kv-cache")
    assert _waiting() == start  # the wait was given up: dropped, and never shown as waiting

    ahead = CountsAhead()
    for _ in range(2):
        ahead.record_lookup(1, "kv-cache")
    assert _waiting() == start
    store = await Store.open(tmp_path / "g.db", flush_interval=None)
    try:
        flushed = _sample("glossary_lookups_flushed_total")
        store.take_counts(ahead)
        assert _waiting() == start + 2  # handed over: waiting for the next flush
        assert await store.flush()
        assert _sample("glossary_lookups_flushed_total") - flushed == 2
    finally:
        await store.close()
    assert _waiting() == start


async def test_a_lookup_dropped_past_the_buffer_s_cap_is_not_shown_waiting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same for the store's own buffer: a lookup of a new key past its cap (the database
    failing for long) is not counted, so not written, and was still added to
    `glossary_lookups_buffered_total`: waiting for ever on the dashboard."""
    monkeypatch.setattr(Store, "observer", metrics.StoreMetrics())
    store = await Store.open(tmp_path / "g.db", flush_interval=None, max_pending_lookups=1)
    try:
        start = _waiting()
        store.record_lookup(1, "kv-cache")
        store.record_lookup(1, "rag")  # a second key: past the cap, not counted
        store.record_lookup(1, "kv-cache")  # a key already buffered: counted
        assert _waiting() == start + 2
        assert await store.flush()
        assert _waiting() == start
    finally:
        await store.close()


def test_lookups_past_the_wait_s_cap_are_said_not_counted() -> None:
    """A flood during the wait: past the cap of distinct keys kept in memory, a lookup of a new
    key is not counted (`CountsAhead.dropped`), and neither the "answers after" line nor the
    give-up line said so: they gave the count kept as if it were every lookup."""
    ahead = CountsAhead(max_lookups=1, max_misses=1)
    ahead.record_lookup(1, "kv-cache")
    ahead.record_lookup(1, "kv-cache")
    ahead.record_lookup(1, "rag")  # a new key past the cap
    ahead.record_miss(1, "zorbly")
    ahead.record_miss(1, "blorfy")  # likewise
    assert ahead.said() == (
        "2 lookups and 1 missed search (2 more past the cap of keys kept in memory, not counted)"
    )
    assert CountsAhead().said() == "0 lookups and 0 missed searches"


def _json_lines(bot: BotProcess) -> list[dict[str, object]]:
    return [json.loads(line) for line in bot.lines if line.startswith("{")]


async def test_the_wait_in_json_logs_and_metrics_scraped_through_it(tmp_path: Path) -> None:
    """PostgreSQL refusing, LOG_FORMAT=json, METRICS_PORT: the wait's WARNING and the give-up
    ERROR are JSON objects of their level; `/metrics` answers during the wait; a lookup
    answered during the wait, dropped at the give-up, is not left in
    `glossary_lookups_buffered_total` as waiting to be written (wait50 left it there). The
    give-up comes when the test says, not at a time: PostgreSQL up, refusing the password."""
    port = _free_port()  # nothing listens: refused
    url = f"postgresql://glossary:s3cret@127.0.0.1:{port}/glossary"
    settings = {
        "DATABASE_URL": url,
        "DATABASE_WAIT": "600",  # never reached: the refused password ends the wait
        "LOG_FORMAT": "json",
        "METRICS_PORT": "0",
    }
    async with FakeDiscord() as fake:
        alice, _, _, channel = glossary_lab(fake)
        async with BotProcess(fake, tmp_path / "unused.db", cwd=tmp_path, **settings) as bot:
            waiting = json.loads(await bot.wait_for_output("answering from the glossary meanwhile"))
            assert waiting["level"] == "WARNING", waiting
            assert "s3cret" not in str(waiting)
            served = await metrics_port(bot)
            defined = await fake.slash(alice, "define", {"term": "kv cache"}, channel=channel)
            assert (await defined.final_message())["embeds"][0]["title"] == "KV Cache"
            async with _refusing_logins(port):
                given_up = json.loads(
                    await bot.wait_for_output("answering without counts and aliases", within=60)
                )
            assert given_up["level"] == "ERROR", given_up
            assert "tried again while answering" in str(given_up["message"]), given_up
            assert "the 1 lookup and 0 missed searches counted meanwhile are not kept" in str(
                given_up["message"]
            ), given_up
            samples = await asyncio.to_thread(scrape, served)
            buffered = samples[("glossary_lookups_buffered_total", ())]
            flushed = samples[("glossary_lookups_flushed_total", ())]
            assert buffered - flushed == 0, samples  # nothing waits: the lookup is gone
            assert (
                samples[("glossary_interactions_total", (("kind", "define"), ("outcome", "card")))]
                == 1
            )
        assert all(isinstance(line, dict) for line in _json_lines(bot))
        assert "Traceback" not in bot.output, bot.output[-3000:]


async def test_a_sqlite_file_in_a_folder_not_there_yet_is_not_waited_for(tmp_path: Path) -> None:
    """A SQLite DATABASE_PATH on a volume not mounted yet (its folder missing at the start):
    not waited for, whatever DATABASE_WAIT says (only a PostgreSQL not up yet is); the one
    ERROR naming DATABASE_PATH at once, moderator changes told "cannot be written right now"
    (not "not reachable yet": no open will follow), `health` says to restart; the folder
    appearing later changes nothing until then (README's DATABASE_WAIT row says so)."""
    later = tmp_path / "volume"  # not there yet
    beat = tmp_path / "beat"
    async with FakeDiscord() as fake:
        alice, moderator, _, channel = glossary_lab(fake)
        settings = {"DATABASE_WAIT": "60", "HEARTBEAT_PATH": str(beat)}
        async with BotProcess(fake, later / "glossary-bot.db", cwd=tmp_path, **settings) as bot:
            said = await bot.wait_for_output("answering without counts and aliases")
            assert "ERROR" in said, said
            assert "DATABASE_PATH=" in said, said
            later.mkdir()  # the volume comes
            handle = await fake.slash(
                moderator, "alias add", {"alias": "zorbly", "term": "rag"}, channel=channel
            )
            told = (await handle.final_message())["content"]
            assert told == STORAGE_DOWN, told  # not NOT_YET_WRITE: no open follows
            defined = await fake.slash(alice, "define", {"term": "kv cache"}, channel=channel)
            assert (await defined.final_message())["embeds"][0]["title"] == "KV Cache"

            async def restart_said() -> bool:
                return "restart the bot once that is fixed" in check_heartbeat(beat)[1]

            await eventually(restart_said, "health saying to restart the bot")
        assert "answering from the glossary meanwhile" not in bot.output
        assert "trying again" not in bot.output
        assert not (later / "glossary-bot.db").exists()


@pytest.mark.postgres
async def test_a_form_opened_before_a_restart_and_saved_during_the_wait_keeps_its_text(
    tmp_path: Path,
) -> None:
    """A moderator's `/term edit` form opened before a restart (its draft, the term it edits,
    in the database), saved while the restarted bot waits for PostgreSQL: it was told "this
    form is too old … I no longer know which term it edits. Run `/term edit` again" and lost
    its text, though the draft was in the database, readable a minute later. Now: nothing
    saved, the database not reachable yet, the text kept for Edit again, which saves the edit
    once the database opens."""
    real = urlsplit(TEST_DATABASE_URL)
    port = _free_port()
    async with fresh_schema(TEST_DATABASE_URL) as url, FakeDiscord() as fake:
        not_up = at_port(url, port)
        _, moderator, guild, channel = glossary_lab(fake)
        async with BotProcess(
            fake, tmp_path / "unused.db", cwd=tmp_path, DATABASE_URL=url
        ) as first:
            form = await fake.slash(
                moderator, "term add", {"category": "Fundamentals"}, channel=channel
            )
            await form.response()
            added = await (await fake.submit_modal(moderator, form, ZORBLAX)).final_message()
            assert added["content"].startswith("Added **Zorblax**"), added
            edit = await fake.slash(moderator, "term edit", {"term": "zorblax"}, channel=channel)
            await edit.response()  # the form is open; its draft is in the database
            assert await first.stop() == 0
        async with BotProcess(
            fake, tmp_path / "unused.db", cwd=tmp_path, DATABASE_URL=not_up
        ) as bot:
            await bot.wait_for_output("answering from the glossary meanwhile")
            said = await (await fake.submit_modal(moderator, edit, EDITED)).final_message()
            assert said["content"].startswith(
                "Nothing was saved: the database is not reachable yet (the bot has just started)"
            ), said
            assert EDITED["definition"] in said["content"]  # what was typed, given back
            async with _forwarding(port, real.hostname or "127.0.0.1", real.port or 5432):
                await bot.wait_for_output("answers after", within=60)
                again = await fake.click(moderator, said, buttons(said)["Edit again"])
                await again.response()
                saved = await (await fake.submit_modal(moderator, again, {})).final_message()
                assert "Zorblax" in saved["content"], saved
                assert "Nothing was saved" not in str(saved), saved
                assert await bot.stop() == 0
        assert "Traceback" not in bot.output, bot.output[-3000:]
        stored = await Store.open(url, flush_interval=None, migrate=Migrate.NEVER)
        try:
            (term,) = await stored.terms(guild.id)
        finally:
            await stored.close()
        assert EDITED["definition"] in term.body, term  # the edit, of the term it was opened for


@pytest.mark.postgres
async def test_a_stop_as_the_database_opens_writes_what_was_counted_meanwhile(
    tmp_path: Path,
) -> None:
    """SIGTERM the moment the database answers (its "answers after" line, the claim and the
    warm still under way): exit 0, the lookups counted during the wait written by the close,
    `health` "stopped cleanly", no traceback."""
    real = urlsplit(TEST_DATABASE_URL)
    port = _free_port()
    beat = tmp_path / "beat"
    async with fresh_schema(TEST_DATABASE_URL) as url, FakeDiscord() as fake:
        not_up = at_port(url, port)
        alice, _, guild, channel = glossary_lab(fake)
        settings = {"DATABASE_URL": not_up, "HEARTBEAT_PATH": str(beat)}
        async with BotProcess(fake, tmp_path / "unused.db", cwd=tmp_path, **settings) as bot:
            await bot.wait_for_output("answering from the glossary meanwhile")
            for _ in range(2):
                defined = await fake.slash(alice, "define", {"term": "kv cache"}, channel=channel)
                assert (await defined.final_message())["embeds"][0]["title"] == "KV Cache"
            async with _forwarding(port, real.hostname or "127.0.0.1", real.port or 5432):
                opened = await bot.wait_for_output("answers after", within=60)
                assert await bot.stop() == 0
        assert "2 lookups and 0 missed searches counted meanwhile are written" in opened, opened
        assert "Traceback" not in bot.output, bot.output[-3000:]
        assert "ERROR" not in bot.output, bot.output[-3000:]
        assert check_heartbeat(beat)[1].startswith("stopped: the bot stopped cleanly")
        stored = await Store.open(url, flush_interval=None, migrate=Migrate.NEVER)
        try:
            assert await stored.total_lookups(guild.id) == 2
        finally:
            await stored.close()


@pytest.mark.postgres
async def test_the_database_failing_again_as_soon_as_it_opened(tmp_path: Path) -> None:
    """PostgreSQL answers during the wait, then goes again at once (its port closed right after
    the "answers after" line): no traceback; /define answers; a moderator's change is told the
    database cannot be written (not "not reachable yet": the wait is over), nothing claimed;
    the stop exits 0."""
    real = urlsplit(TEST_DATABASE_URL)
    port = _free_port()
    async with fresh_schema(TEST_DATABASE_URL) as url, FakeDiscord() as fake:
        not_up = at_port(url, port)
        alice, moderator, guild, channel = glossary_lab(fake)
        async with BotProcess(
            fake, tmp_path / "unused.db", cwd=tmp_path, DATABASE_URL=not_up
        ) as bot:
            await bot.wait_for_output("answering from the glossary meanwhile")
            async with _forwarding(port, real.hostname or "127.0.0.1", real.port or 5432):
                await bot.wait_for_output("answers after", within=60)
            defined = await fake.slash(alice, "define", {"term": "kv cache"}, channel=channel)
            assert (await defined.final_message())["embeds"][0]["title"] == "KV Cache"
            handle = await fake.slash(
                moderator, "alias add", {"alias": "zorbly", "term": "rag"}, channel=channel
            )
            assert (await handle.final_message())["content"] == STORAGE_DOWN
            assert await bot.stop() == 0
        assert "Traceback" not in bot.output, bot.output[-3000:]
        stored = await Store.open(url, flush_interval=None, migrate=Migrate.NEVER)
        try:
            assert await stored.list_aliases(guild.id) == []
        finally:
            await stored.close()
