"""left58: review63's read ahead end to end, as an operator meets it: a real `glossary-bot
aliases import` naming many servers the running bot holds, beside a real `glossary-bot run`
against the fake Discord. A process test (~10-20 s: the bot's start): the two processes and
the database between them are what is tested; the queue's order and one-at-a-time are
tests/storage/test_review63.py's."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.discord_app.helpers import define, define_until_card, embed_of
from tests.resilience.botproc import BotProcess, import_aliases

from .conftest import Scene

SERVERS = 12


async def test_an_import_naming_many_held_servers_beside_the_running_bot(
    scene: Scene, tmp_path: Path
) -> None:
    """Each server held (asked once), then one import naming them all while members keep
    asking: every `/define` during the import and the reads after it is answered with its
    card, and each server's new alias opens its card in that server (the bot read them all
    again, not only the one asked first)."""
    fake = scene.fake
    places = [scene.channel]
    for n in range(SERVERS - 1):
        guild = fake.add_guild(f"Storm {n}")
        places.append(guild.add_text_channel("chat"))
        guild.add_member(scene.alice)
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, COOLDOWN_USES="1000") as bot:
        for place in places:  # every server held: read and kept by the bot
            _, card = await define(fake, scene.alice, "rag", place)
            assert "RAG" in embed_of(card)["title"], card
        rows = [
            {"guild_id": place.guild_id, "alias": f"stormword {n}", "entry_id": "kv-cache"}
            for n, place in enumerate(places)
        ]
        importing = asyncio.create_task(import_aliases(rows, scene.db_path, tmp_path))
        asked = 0
        # Each settle spends one of the bot's gateway sends (discord.py allows 110 a minute):
        # the asks during the import do not wait for the bot to settle.
        fake.settle_before_actions = False
        try:
            while not importing.done() or asked < SERVERS:  # members ask all along
                _, card = await define(fake, scene.alice, "lora", places[asked % SERVERS])
                assert "LoRA" in embed_of(card)["title"], card
                asked += 1
        finally:
            fake.settle_before_actions = True
        status, out, err = await importing
        assert status == 0, (out, err)
        assert f"added {SERVERS}" in out, out
        # The last server first: read ahead, not at its ask.
        for n, place in reversed(list(enumerate(places))):
            card = await define_until_card(fake, scene.alice, f"stormword {n}", place)
            assert "KV Cache" in embed_of(card)["title"], card
        assert bot.process is not None
        assert bot.process.returncode is None
    assert not [line for line in bot.lines if "Traceback" in line], bot.lines[-20:]
