"""tidy75: outsider75's and left75's loose ends, through the fake Discord."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from tests.discord_app.term_commands import add_term

from .conftest import Scene

OURS = {
    "title": "Zorblax",
    "definition": "The made-up zorblax of this test server.",
    "boundary": "",
    "other_names": "",
    "related": "",
}


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
