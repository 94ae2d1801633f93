"""One server's change reads only that server again: tests/outsider/PLAN.md, "versions51".

Shown by counting reads of each server's rows, never by a time."""

from __future__ import annotations

import pytest

from bot.storage import Store
from bot.term_storage import change_terms
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import (
    VersionChecks,
    count_reads,
    define,
    define_until_card,
    embed_of,
    put,
    terms,
)

from .conftest import Scene


async def test_another_servers_change_reads_no_other_server_again(
    scene: Scene, start_bot: StartBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """scale50 S6: the versions were the database's, so one server's change made every cached
    server read its rows again at its next request (60-80 ms of CPU a full server: 15-20 s
    with 200 of them, per change). Each server has a version of its own now: another
    process's change of one server reads that server again, and no other."""
    fake, guild, other = scene.fake, scene.guild.id, scene.other_guild.id
    await change_terms(store, guild, put(*terms("Zorbic", 3)), 1)
    await change_terms(store, other, put(*terms("Blorp", 1)), 1)
    async with start_bot(store, alias_check_interval=0.05):
        _, card = await define(fake, scene.alice, "Zorbic Quux 1", scene.channel)
        assert embed_of(card)["title"] == "Zorbic Quux 1"
        _, card = await define(fake, scene.alice, "Blorp Quux 0", scene.other_channel)
        assert embed_of(card)["title"] == "Blorp Quux 0"
        checks = VersionChecks(store, monkeypatch)
        reads = count_reads(store, monkeypatch)

        operator = await Store.open(scene.db_path, flush_interval=None)  # another process
        try:
            await change_terms(operator, other, put(*terms("Blorp", 2)), 1)
        finally:
            await operator.close()
        await checks.after_change()

        _, card = await define(fake, scene.alice, "Zorbic Quux 2", scene.channel)
        assert embed_of(card)["title"] == "Zorbic Quux 2"
        card = await define_until_card(fake, scene.alice, "Blorp Quux 1", scene.other_channel)
        assert embed_of(card)["title"] == "Blorp Quux 1"  # the changed server: read again
        assert reads[other] >= 1
        assert reads[guild] == 0, reads  # the other: not read again
