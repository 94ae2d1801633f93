"""outsider76 (tests/outsider/PLAN.md, "outsider76"): what a moderator met through the fake
Discord in a week of setting up a new server's glossary."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from tests.discord_app.helpers import define
from tests.discord_app.term_commands import add_term, edit_answer

from .conftest import Scene
from .test_outsider76 import MARKDOWN


async def _import(scene: Scene, name: str, text: str, **options: object) -> str:
    handle = await scene.fake.slash(
        scene.moderator,
        "term import",
        {"file": scene.fake.add_attachment(name, text), **options},
        channel=scene.channel,
    )
    return str((await handle.final_message())["content"])


async def test_a_markdown_import_without_a_category_names_the_option(
    scene: Scene, bot: GlossaryBot
) -> None:
    """outsider76: `/term import` of a Markdown glossary (which has no categories) answered
    "Category: choose a category (one of: …)" for each heading, and nothing said that the
    command's `category` option gives one to the entries without one; given, it imports."""
    said = await _import(scene, "ours.md", MARKDOWN, dry_run=True)
    assert said.startswith("Nothing was imported: 2 problems"), said
    assert "“Foo Widget”, Category:" in said, said
    assert "`category` option" in said, said
    assert "--category" not in said, said  # the command line's, not the moderator's
    said = await _import(scene, "ours.md", MARKDOWN, category="Fundamentals")
    assert said.startswith("Imported: 2 added"), said


async def test_a_toml_entry_without_a_category_is_told_both_ways(
    scene: Scene, bot: GlossaryBot
) -> None:
    """outsider76: a hand-written TOML entry without a category may say one itself, or take
    the import's option: the refusal names both."""
    text = '[[entries]]\ntitle = "Foo Widget"\ndefinition = "A widget of foos."\n'
    said = await _import(scene, "ours.toml", text, dry_run=True)
    assert "“Foo Widget”, Category:" in said, said
    assert "category = " in said, said
    assert "`category` option" in said, said


async def test_a_renamed_term_s_autocomplete_choice_opens_it_beside_a_term_of_its_old_title(
    scene: Scene, bot: GlossaryBot
) -> None:
    """outsider76, a moderator's week: "Quuxnet" renamed "Quux Mesh" (its id stays "quuxnet"),
    then a new term written under the old title "Quuxnet" (id "quuxnet-2"). A member typing
    "quux m" picks **Quux Mesh** from autocomplete, whose value is its id, "quuxnet": /define
    must open Quux Mesh, the card picked, not the new Quuxnet."""
    fake = scene.fake
    said = await add_term(scene, {"title": "Quuxnet", "definition": "A network of quuxes."})
    assert said["content"].startswith("Added **Quuxnet**"), said
    said = await edit_answer(scene, "quuxnet", {"title": "Quux Mesh"})
    assert said.startswith("Saved **Quux Mesh**"), said
    said = await add_term(scene, {"title": "Quuxnet", "definition": "The old quux network."})
    assert said["content"].startswith("Added **Quuxnet**"), said

    handle = await fake.autocomplete(
        scene.alice, "define", {"term": "quux m"}, focused="term", channel=scene.channel
    )
    picked = next(c for c in await handle.choices() if c["name"] == "Quux Mesh")
    _, card = await define(fake, scene.alice, picked["value"], scene.channel)
    assert card["embeds"][0]["title"] == "Quux Mesh", card
    # Typed, the old title opens the term that has it now.
    _, card = await define(fake, scene.alice, "Quuxnet", scene.channel)
    assert card["embeds"][0]["title"] == "Quuxnet", card
