"""Small leftovers of earlier rounds (task left30, PLAN.md "Leftovers (left30)"): the real bot
(discord.py) against the fake Discord on real SQLite files, and `glossary-bot` on the command
line."""

from __future__ import annotations

from pathlib import Path

from bot.discord_app.app import GlossaryBot
from tests.discord_app.test_terms import add_term
from tests.resilience.botproc import glossary_bot_waited

from .conftest import Scene
from .test_left28 import alias_add
from .test_round14 import CLI_ENV


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


def test_check_of_a_folder_without_glossary_files_says_what_is_missing(tmp_path: Path) -> None:
    """readme28's left: `glossary-bot check` on an empty data folder ended "0 entries (); 1
    error(s), 0 warning(s)" under "FOLDER: error: no glossary entries found", and a folder of
    files check does not read (notes.rst) said the same. Now the error says the folder holds no
    file check reads, and which endings it reads; the summary has no empty brackets."""
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "notes.rst").write_text("Zorblax\n=======\n", encoding="utf-8")
    status, output = glossary_bot_waited(CLI_ENV, tmp_path, "check", "data")
    assert status == 1, output
    assert output.splitlines() == [
        "data: error: no glossary entries found: the folder holds no glossary file "
        "(a .json, .md, .txt or .toml file)",
        "0 entries; 1 error(s), 0 warning(s)",
    ], output
    (folder / "notes.rst").unlink()
    empty = tmp_path / "empty.toml"
    empty.write_text("", encoding="utf-8")
    status, output = glossary_bot_waited(CLI_ENV, tmp_path, "check", "empty.toml")
    assert status == 1, output
    assert output.splitlines()[-1].startswith("0 entries (0 from empty); 1 error(s)"), output
