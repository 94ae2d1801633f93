"""product77: a name a moderator types for /term edit|remove that names more than one of the
server's terms (a renamed term's id that a later term has as its title, two terms stored before
names differing only in case were refused): the one acted on is the one written exactly so,
and the moderator is told which other terms it names and how to pick them."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from tests.discord_app.term_commands import add_term, edit_answer, made_up, stored_now

from .conftest import Scene


async def asked(scene: Scene, command: str, options: dict[str, str]) -> str:
    handle = await scene.fake.slash(scene.moderator, command, options, channel=scene.channel)
    return str((await handle.final_message())["content"])


async def choices(scene: Scene, typed: str) -> dict[str, str]:
    handle = await scene.fake.autocomplete(
        scene.moderator, "term remove", {"term": typed}, focused="term", channel=scene.channel
    )
    return {c["name"]: c["value"] for c in await handle.choices()}


async def test_a_renamed_term_s_id_typed_says_the_other_term_it_names(
    scene: Scene, bot: GlossaryBot
) -> None:
    said = await add_term(scene, {"title": "Quuxnet", "definition": "A network of quuxes."})
    assert said["content"].startswith("Added **Quuxnet**"), said
    said = await edit_answer(scene, "quuxnet", {"title": "Quux Mesh"})
    assert said.startswith("Saved **Quux Mesh**"), said
    said = await add_term(scene, {"title": "Quuxnet", "definition": "The old quux network."})
    assert said["content"].startswith("Added **Quuxnet**"), said
    said = await asked(scene, "term remove", {"term": "quuxnet"})
    assert said.startswith("Remove “Quuxnet”"), said
    assert "“quuxnet” also names **Quux Mesh**: to mean that one, pick it from the list." in said
    listed = await choices(scene, "quux")
    for title, value in listed.items():
        said = await asked(scene, "term remove", {"term": value})
        assert said.startswith(f"Remove “{title}”"), (title, value, said)
        assert "also names" not in said, said  # a pick names one term


async def test_two_terms_differing_only_in_case_are_told_apart(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    await stored_now(
        scene,
        bot,
        store,
        made_up("zorb", title="Zorb"),
        made_up("zorb-2", title="ZORB"),
        made_up("cafe-a", title="Café"),
        made_up("cafe-b", title="Cafe"),
    )
    said = await asked(scene, "term remove", {"term": "ZORB"})
    assert said.startswith("Remove “ZORB”"), said  # was Zorb: the first in any case
    assert "“ZORB” also names **Zorb**" in said, said
    said = await asked(scene, "term remove", {"term": "Zorb"})
    assert said.startswith("Remove “Zorb”"), said
    assert "“Zorb” also names **ZORB**" in said, said
    said = await asked(scene, "term remove", {"term": "cafe"})
    assert said.startswith("Remove “Cafe”"), said
    assert "also names" not in said, said  # accents tell them apart: one term
    listed = await choices(scene, "zorb")
    assert set(listed) == {"Zorb", "ZORB"}, listed
    for title, value in listed.items():
        said = await asked(scene, "term remove", {"term": value})
        assert said.startswith(f"Remove “{title}”"), (title, value, said)
