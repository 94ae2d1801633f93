"""Round 17's leftovers (tests/outsider/PLAN.md, "Summary (round 17)", found and left): each
test fails before its fix."""

from __future__ import annotations

import asyncio
import functools
import logging
from typing import Any

import pytest

from bot.discord_app import alias_cache
from bot.discord_app.cogs import define as define_cog
from bot.search import local as local_module
from bot.search.local import LocalGlossary
from bot.storage import Store
from bot.storage.postgres import backend as postgres_backend
from tests.discord_app.conftest import Scene, StartBot
from tests.discord_app.helpers import define, embed_of
from tests.discord_app.test_term_meaning import put_terms
from tests.outsider.test_round17 import five_servers
from tests.polling import eventually
from tests.resilience.helpers import hung_database
from tests.search.server_term_meanings import STANDUP_BINGO


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "bot.discord_app.alias_cache" and r.levelno >= logging.WARNING
    ]


async def test_first_reads_answered_late_are_not_blamed_on_the_database(
    scene: Scene, start_bot: StartBot, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """Plan line Y24: during an autocomplete storm the first read of each of a burst of servers
    waited past the read timeout behind a busy bot, then was answered: each logged "could not
    read the aliases and terms … until the database answers" about a healthy database, once a
    server (each answer ended the streak). Now only a read that fails, or that the database has
    not answered by the read deadline, is said: once a streak, whatever the server."""
    caplog.set_level(logging.INFO, logger="bot.discord_app.alias_cache")
    fake = scene.fake
    channels = five_servers(scene)
    async with start_bot(store, read_timeout=0.05) as bot:
        servers = bot.state.servers
        servers.read_deadline = 60.0  # late, not failing
        for channel in channels:
            scope = channel.guild_id or 0
            servers.forget(scope)  # not read yet, as in a burst of first reads
            with hung_database(store) as answering:
                _, message = await define(fake, scene.alice, "rag", channel)
                assert embed_of(message)["title"], message  # answered without its aliases
                answering.set()  # the database answers, late
                await eventually(functools.partial(servers.knows, scope), "read")
        assert _warnings(caplog) == []

        servers.read_deadline = 0.1  # the database does not answer by then: a failure
        with hung_database(store):
            for channel in channels:
                servers.forget(channel.guild_id or 0)
                _, message = await define(fake, scene.alice, "rag", channel)
                assert embed_of(message)["title"], message
            await eventually(lambda: _warnings(caplog), "said")
        said = _warnings(caplog)
        assert len(said) == 1, said
        assert "no answer in 0.1 s" in said[0], said


async def test_the_warm_up_indexes_no_more_servers_than_are_kept(
    scene: Scene, start_bot: StartBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Plan line Y3: after READY the bot read and indexed every server with terms of its own
    (a tenth of a second of a thread each), keeping only the 200 most recently asked: with
    3,000 such servers it indexed 2,800 only to drop them. Now the warm-up stops once as many
    are indexed as are kept; the rest are read when asked."""
    monkeypatch.setattr(alias_cache, "MAX_INDEXED", 2)
    fake = scene.fake
    channels = five_servers(scene)
    for channel in channels:
        await put_terms(store, channel.guild_id or 0, STANDUP_BINGO)
    async with start_bot(store) as bot:
        ready = [t for t in asyncio.all_tasks() if t.get_name() == "discord.py: on_ready"]
        await asyncio.gather(*ready)  # the warm-up at connecting, done
        servers = bot.state.servers
        for server in bot.guilds:
            servers.forget(server.id)  # as at a start
        indexed = 0
        compile_local = local_module.compile_local

        def counted(*args: Any, **kwargs: Any) -> LocalGlossary:
            nonlocal indexed
            local = compile_local(*args, **kwargs)
            indexed += bool(local.terms)
            return local

        monkeypatch.setattr(alias_cache, "compile_local", counted)
        await bot.on_ready()
        assert indexed == 2
        assert servers.indexed_servers() == 2
        _, card = await define(fake, scene.alice, "standup bingo", channels[-1])  # not warmed
        assert embed_of(card)["title"] == "Standup Bingo", card


async def test_the_channels_told_about_a_missing_embed_links_are_bounded(
    start_bot: StartBot,
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Plan line Y11: each channel where the bot was mentioned without Embed Links was logged
    once, and its id kept for ever: a set growing with every such channel of a long life. Now
    the most recently told are kept (one dropped may be said once more), still one line each."""
    monkeypatch.setattr(define_cog, "MAX_LACKING_SAID", 2)
    caplog.set_level(logging.WARNING, logger=define_cog.__name__)
    async with start_bot(store) as bot:
        cog = bot.get_cog("DefineCog")
        assert isinstance(cog, define_cog.DefineCog)
        for channel_id in (1, 2, 3, 4, 5, 5, 4):
            cog._say_lacking(channel_id, "embed_links")
        assert list(cog._lacking_said) == [(5, "embed_links"), (4, "embed_links")]
    said = [r.getMessage() for r in caplog.records if "Embed Links" in r.getMessage()]
    assert len(said) == 5, said  # once a channel while remembered


def test_a_statement_cut_off_by_the_command_timeout_is_not_called_an_unreachable_host() -> None:
    """Plan line Y19: `migrate-db` of a year of 300 servers into a local PostgreSQL answering
    throughout failed after 128 s with "cannot reach the database …: no answer in time (a
    firewall dropping the connection, or the wrong host or port)": one statement of its one
    write had passed the pool's 60 s command timeout, a TimeoutError saying nothing. Now a
    timeout inside a transaction names the timeout and where it is set."""
    location = "postgresql://glossary@127.0.0.1:5432/glossary"
    said = str(postgres_backend.as_storage_error(TimeoutError(), location, in_statement=True))
    assert "within 60 s" in said, said
    assert "COMMAND_TIMEOUT" in said, said
    assert "firewall" not in said, said
    # Opening the pool, a host that never answers is still said as one.
    said = str(postgres_backend.as_storage_error(TimeoutError(), location))
    assert "a firewall dropping the connection" in said, said
