"""left54 (tests/outsider/PLAN.md, "Leftovers (left54)"): the real discord.py client on the fake
Discord, a real SQLite file; each test failing on main 0f33958d first."""

from __future__ import annotations

from bot.glossary.interchange import export_bytes, import_cap
from bot.storage import Store
from bot.term_storage import TermChange, change_terms, read_terms
from tests.discord_app.conftest import StartBot
from tests.discord_app.test_term_files import run_import
from tests.storage.test_left54 import BIG, LOWERED

from .conftest import Scene


async def test_term_import_takes_a_servers_own_export_past_a_lowered_text_cap(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """review60's leftover in Discord: `/term import` of the server's own export, the caps
    lowered under what it holds, was refused by the file's size before the download ("is 1.2
    MiB; an import is at most 1 MiB. Nothing was imported."). Now a file past the caps' limit
    is measured against what the server holds; one past that is still refused undownloaded."""
    fake, guild = scene.fake, scene.guild.id
    await change_terms(store, guild, lambda *_: (TermChange(put=BIG), None), 1)
    stored = await read_terms(store, guild)
    exported = export_bytes(stored)
    assert len(exported) > import_cap(*LOWERED)
    async with start_bot(store, term_caps=LOWERED):
        said = await run_import(scene, fake.add_attachment("own.toml", exported))
        assert said.startswith("Nothing changed: the file holds this server's terms"), said
        bigger = fake.add_attachment("bigger.toml", size=len(exported) + 2**20)
        said = await run_import(scene, bigger)
        assert said.startswith("“bigger.toml” is 2.2 MiB; an import is at most"), said
        assert said.endswith("Nothing was imported."), said
        assert await read_terms(store, guild) == stored
