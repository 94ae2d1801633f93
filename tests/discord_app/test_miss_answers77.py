"""product77: the alias box's answers (is each missed search answered now?) have one home, the
server cache, per server glossary: bounded, and started again by a write of the server's."""

from __future__ import annotations

from bot.discord_app.alias_cache import MissAnswers
from bot.discord_app.app import GlossaryBot
from bot.storage import Store

from .conftest import Scene
from .helpers import define


async def box(scene: Scene, typed: str) -> list[str]:
    handle = await scene.fake.autocomplete(
        scene.moderator,
        "alias add",
        {"alias": typed},
        focused="alias",
        channel=scene.channel,
    )
    return [c["value"] for c in await handle.choices()]


async def test_an_alias_written_starts_the_box_s_answers_again(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    await define(scene.fake, scene.alice, "kv stashery", scene.channel)  # a miss
    assert "kv stashery" in await box(scene, "kv")
    scope = scene.guild.id
    local = await bot.state.servers.local(scope)
    held = bot.state.servers.miss_answers(scope, local)
    assert held.get("kv stashery") is False  # kept with this server's glossary
    handle = await scene.fake.slash(
        scene.moderator,
        "alias add",
        {"alias": "kv stashery", "term": "kv-cache"},
        channel=scene.channel,
    )
    assert str((await handle.final_message())["content"]).startswith("Added"), handle
    after = await bot.state.servers.local(scope)
    assert after is not local
    assert bot.state.servers.miss_answers(scope, after).get("kv stashery") is None
    assert "kv stashery" not in await box(scene, "kv")


def test_a_server_s_answers_are_bounded() -> None:
    answers = MissAnswers(kept=3)
    for n in range(10):
        answers.put(f"miss {n}", False)
    assert len(answers) == 3
    assert answers.get("miss 0") is None
    assert answers.get("miss 9") is False
