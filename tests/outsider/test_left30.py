"""Small leftovers of earlier rounds (task left30, PLAN.md "Leftovers (left30)"): the real bot
(discord.py) against the fake Discord on real SQLite files, and `glossary-bot` on the command
line."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from tests.discord_app.test_terms import add_term

from .conftest import Scene
from .test_left28 import alias_add


async def test_an_alias_refusal_quotes_the_alias_as_the_moderator_typed_it(
    scene: Scene, bot: GlossaryBot
) -> None:
    """readme28's N31: `zorb-lax` beside the server's Zorblax was refused as "“zorb lax”
    already names …", the alias as search keys it, not as typed. Now the refusal quotes what the
    moderator typed and, where search reads it otherwise than by case, how it reads it."""
    assert (await add_term(scene))["content"].startswith("Added **Zorblax**")
    said = await alias_add(scene, "Zorb-Lax", "kv-cache")
    assert said.startswith("“Zorb-Lax” (search reads it as “zorb lax”) "), said
    assert "**Zorblax**" in said, said
    assert await alias_add(scene, "KV Cache", "rag") == (
        "“KV Cache” already names **KV Cache** in the glossary."
    )
    assert (await alias_add(scene, "KV Stash", "kv-cache")).startswith("Added"), scene
    assert await alias_add(scene, "KV-Stash", "rag") == (
        "“KV-Stash” (search reads it as “kv stash”) is already this server's alias for "
        "**KV Cache**. Remove it first to change it."
    )
