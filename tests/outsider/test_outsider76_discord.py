"""outsider76 (tests/outsider/PLAN.md, "outsider76"): what a moderator met through the fake
Discord in a week of setting up a new server's glossary."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from bot.term_storage import read_terms
from tests.discord_app.helpers import define
from tests.discord_app.term_commands import add_term, edit_answer, made_up, stored_now

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


async def test_an_edit_leaves_out_related_entries_the_glossary_no_longer_has(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """outsider76, a moderator's week: a term related to an entry of the maintainers' own
    glossary folder (GLOSSARY_PATHS), then served without that folder. `/term export` leaves
    the related id out and says so; but `/term edit`'s form held it as its id ("flurb-index")
    and its save, of a definition alone, was refused: "no term of this server or the bundled
    glossary is called “flurb-index”", for what the moderator had not typed. Nor did the
    server's own earlier export import back. The stored id is left out, with a note."""
    term = made_up("snorkelator", related=("flurb-index", "rag"))
    await stored_now(scene, bot, store, term)
    said = await edit_answer(scene, "snorkelator", {"definition": "A device for snorkels."})
    assert said.startswith("Saved **Snorkelator**"), said
    assert "“flurb-index”" in said, said
    assert "no longer in the glossary" in said, said
    stored = {t.id: t for t in await read_terms(store, scene.guild.id)}
    assert stored["snorkelator"].related == ("rag",)
    assert stored["snorkelator"].definition == "A device for snorkels."

    # A name typed that names nothing is still refused.
    said = await edit_answer(scene, "snorkelator", {"related": "RAG, flurb-indx"})
    assert said.startswith("Nothing was saved"), said
    assert "“flurb-indx”" in said, said

    # The server's own export from before the folder went imports back, the same way.
    await stored_now(scene, bot, store, term)
    text = (
        '[[entries]]\nid = "snorkelator"\ntitle = "Snorkelator"\ncategory = "Fundamentals"\n'
        'definition = "A made-up snorkelator."\nrelated = ["flurb-index", "rag"]\n'
    )
    said = await _import(scene, "terms.toml", text)
    assert said.startswith("Imported: 0 added, 1 changed, 0 removed."), said
    assert "“flurb-index”" in said, said
    stored = {t.id: t for t in await read_terms(store, scene.guild.id)}
    assert stored["snorkelator"].related == ("rag",)
