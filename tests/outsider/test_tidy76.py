"""tidy76: the last closing note's loose ends (tests/outsider/PLAN.md, "## tidy76"), through
the fake Discord with the real client."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from tests.discord_app.term_commands import made_up, stored_now

from .conftest import Scene


async def _alias_box(scene: Scene, typed: str) -> list[str]:
    box = await scene.fake.autocomplete(
        scene.moderator, "alias add", {"alias": typed}, focused="alias", channel=scene.channel
    )
    return [choice["value"] for choice in await box.choices()]


async def test_the_alias_box_offers_only_misses_nothing_answers_now(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """tidy76 item 2: `/alias add`'s alias box offered every stored miss, one that has since
    become a term's name (a title, an other name) or a bundled entry's (an upgrade brought it)
    too, which picked could only be refused ("is already a name of ..."). It offers what
    `/stats` lists now (`miss_answered`): the typo beside the name is still offered."""
    for miss in ("zorblax", "qwzx", "zorblx", "kv cache", "blorp vane"):
        store.record_miss(scene.guild.id, miss)
    await store.flush()
    before = {"zorblax", "qwzx", "zorblx", "blorp vane"}  # "kv cache" opens KV Cache
    assert set(await _alias_box(scene, "")) == before
    await stored_now(scene, bot, store, made_up("zorblax", aliases=("qwzx",)))
    assert set(await _alias_box(scene, "")) == {"zorblx", "blorp vane"}
    assert await _alias_box(scene, "zor") == ["zorblx"]
    assert await _alias_box(scene, "kv") == []
