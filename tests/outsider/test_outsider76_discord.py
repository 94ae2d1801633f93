"""outsider76 (tests/outsider/PLAN.md, "outsider76"): what a moderator met through the fake
Discord in a week of setting up a new server's glossary."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot

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
