"""tidy75: outsider75's and left75's loose ends, through the fake Discord."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from tests.discord_app.helpers import buttons, define
from tests.discord_app.term_commands import add_term

from .conftest import Scene

OURS = {
    "title": "Zorblax",
    "definition": "The made-up zorblax of this test server.",
    "boundary": "",
    "other_names": "",
    "related": "",
}
MEANS = {"definition": "What I think it is, in my words."}


async def _suggest(scene: Scene, term: str) -> str:
    asked = await scene.fake.slash(scene.alice, "suggest", {"term": term}, channel=scene.channel)
    said = await asked.final_message()
    assert said["flags"] & 64, said  # only to them
    return str(said["content"])


async def test_suggest_a_bundled_name_says_the_glossary_has_it(
    scene: Scene, bot: GlossaryBot
) -> None:
    """tidy75 item 2: `/suggest kv cache` said "already in this server's glossary" of an
    entry that ships with the bot, which this server never wrote. A bundled entry is "in the
    glossary"; a term of the server's own is still "in this server's glossary"."""
    assert await _suggest(scene, "kv cache") == (
        "“kv cache” is already in the glossary: **KV Cache**, which `/define` opens. "
        "Nothing was queued."
    )
    await add_term(scene, OURS)
    assert (await _suggest(scene, "zorblax")).startswith(
        "“zorblax” is already in this server's glossary: **Zorblax**"
    )


async def test_a_suggestion_is_queued_by_its_name_as_search_reads_it(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """tidy75 item 3: `/suggest "# zorbqx"`, a /define miss of "# Plinkor" and its "Suggest it",
    and a form's own term "-# Quux" queued the name with its mark, which a term's name may not
    keep (left75: the moderator's form refused it on save). The name is taken as search reads
    it, the member's case kept: what they looked for, and what a moderator can accept."""
    fake = scene.fake
    opened = await fake.slash(scene.alice, "suggest", {"term": "# zorbqx"}, channel=scene.channel)
    assert (await opened.response())["type"] == 9
    sent = await fake.submit_modal(scene.alice, opened, MEANS)
    assert (await sent.final_message())["content"].startswith("Thanks! “zorbqx” is with"), sent
    _, miss = await define(fake, scene.bob, "# Plinkor", scene.channel)
    pressed = await fake.click(scene.bob, miss, buttons(miss)["Suggest it"])
    assert (await pressed.response())["type"] == 9
    said = await (await fake.submit_modal(scene.bob, pressed, MEANS)).final_message()
    assert said["content"].startswith("Thanks! “Plinkor” is with"), said
    form = await fake.slash(scene.moderator, "suggest", {}, channel=scene.channel)
    assert (await form.response())["type"] == 9
    typed = {"title": "-# Quux", **MEANS}
    said = await (await fake.submit_modal(scene.moderator, form, typed)).final_message()
    assert said["content"].startswith("Thanks! “Quux” is with"), said
    waiting = {s.title for s in await store.open_suggestions(scene.guild.id)}
    assert waiting == {"zorbqx", "Plinkor", "Quux"}
