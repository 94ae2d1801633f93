"""review60 (tests/outsider/PLAN.md, "review60"): the real discord.py client on the fake
Discord, a real SQLite file; failing on main 6a9933a6 first."""

from __future__ import annotations

from bot.storage import Store
from bot.term_storage import TermChange, change_terms, read_terms
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import is_ephemeral

from .conftest import Scene
from .test_scale50 import terms


async def test_term_add_past_a_lowered_term_cap_says_how_many_to_remove(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """A server of 3 terms whose cap was lowered to 1: `/term add` said "reached its limit of
    1 term … Remove one with `/term remove` first", and with one removed it was still refused.
    Now it says the server is past its limit and how many to remove; nothing is written."""
    guild = scene.guild.id
    await change_terms(store, guild, lambda *_: (TermChange(put=terms("Zorbic", 3)), None), 1)
    async with start_bot(store, term_caps=(1, 2**21)):
        opened = await scene.fake.slash(
            scene.moderator, "term add", {"category": "Fundamentals"}, channel=scene.channel
        )
        answer = await opened.final_message()
        assert is_ephemeral(answer), answer
        assert answer["content"] == (
            "This server has 3 terms, past its limit of 1: nothing can be added. Remove 3 with "
            "`/term remove` first."
        ), answer
        assert len(await read_terms(store, guild)) == 3
