"""left64 (PLAN.md, "Leftovers (left64)"): the moderators' writes and their limits, through the
fake Discord as a moderator meets them; each test failing on main a8a39543 first."""

from __future__ import annotations

import time
from typing import Any

import pytest

from bot.discord_app.cogs.terms import IMPORT_LIMIT
from bot.glossary import Glossary
from bot.glossary.interchange import export_bytes
from bot.storage import Store
from bot.term_storage import read_terms
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import buttons
from tests.discord_app.term_commands import IDEA, add_term, open_add

from .conftest import Scene
from .stopping import told_during_a_stop

SLOW = "You're going a bit fast"


async def test_reject_draws_on_a_limit_of_its_own(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """`/term review`'s Reject closes a suggestion and messages its member, and drew on no
    limit: a moderator held back from every command could go on rejecting. It now has a limit
    of its own (2 uses a window here), as each moderator write has; a Reject refused (the
    suggestion already decided) gives its use back, and rejecting leaves `/term add`'s uses."""
    fake = scene.fake
    for member, title in ((scene.alice, "zorblax"), (scene.bob, "plimwort"), (scene.admin, "qux")):
        await store.add_suggestion(scene.guild.id, member.id, title, IDEA)

    async def reject(shown: dict[str, Any]) -> dict[str, Any]:
        clicked = await fake.click(scene.moderator, shown, buttons(shown)["Reject"])
        return await clicked.final_message()

    async with start_bot(store, cooldown=(2, 3600.0)):
        review = await fake.slash(scene.moderator, "term review", {}, channel=scene.channel)
        first = await review.final_message()
        second = await reject(first)
        assert second["content"].startswith("Rejected the suggestion"), second["content"]
        again = await reject(first)  # decided already: refused, its use given back
        assert "already rejected" in again["content"], again["content"]
        third = await reject(second)
        assert third["content"].startswith("Rejected the suggestion"), third["content"]
        refused = await reject(third)
        assert refused["content"].startswith(SLOW), refused["content"]
        await open_add(scene, scene.moderator)  # `/term add`'s own uses are untouched
    [waiting] = await _open(scene)
    assert waiting == "qux"


async def _open(scene: Scene) -> list[str]:
    stored = await Store.open(scene.db_path)
    try:
        return [s.title for s in await stored.open_suggestions(scene.guild.id)]
    finally:
        await stored.close()


async def test_an_import_cut_short_by_a_stop_gives_its_use_back(
    scene: Scene,
    start_bot: StartBot,
    store: Store,
    glossary: Glossary,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A write whose end a stop did not see (told "either done in full or not at all") gave
    `/alias add`'s and `/alias remove`'s use back but counted `/term import`'s. The doors now
    agree (one helper): a stop's unknown gives the use back. The stopped bot's own count says
    it (limits69: a second bot no longer shares it): on main its import's use was spent."""
    fake = scene.fake
    async with start_bot(store, cooldown=(1, 3600.0)) as bot:
        await add_term(scene)
        [zorblax] = await read_terms(store, scene.guild.id)
        zorb = zorblax.model_copy(update={"id": "zorb", "title": "Zorb", "aliases": ()})
        upload = fake.add_attachment("terms.toml", export_bytes([zorb], glossary))

        def import_() -> Any:
            options = {"file": upload}
            return fake.slash(scene.moderator, "term import", options, channel=scene.channel)

        told = await told_during_a_stop(
            scene, bot, store, monkeypatch, "change_terms", import_, released_in_the_stop=False
        )
    assert told[0].startswith("The bot is stopping"), told
    uses, _ = bot.state.command_limits[IMPORT_LIMIT]
    assert uses.spent(scene.moderator.id, time.monotonic()) is None  # its one use back
