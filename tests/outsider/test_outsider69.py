"""Outsider round 39 (outsider69, PLAN.md): server glossaries used as moderators and
self-hosters use them. Each test failed on main b3ae2e07 first."""

from __future__ import annotations

from typing import Any

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from bot.term_storage import read_terms
from tests.discord_app.helpers import define, embed_of, fields

from .conftest import Scene

# A file a script wrote from text typed on Windows: its line breaks are "\r\n" (and an old
# Mac's "\r") inside the strings, escaped, where the file's own line ends are plain.
WINDOWS_TEXT = """
[[entries]]
title = "Zorblax"
category = "Fundamentals"
definition = "Line one of the nightly job.\\r\\nLine two of it."
boundary = "Not the reranker.\\rNot the index either."
"""


async def import_file(scene: Scene, name: str, data: bytes | str, **options: Any) -> str:
    file = scene.fake.add_attachment(name, data)
    asked = await scene.fake.slash(
        scene.moderator, "term import", {"file": file, **options}, channel=scene.channel
    )
    return str((await asked.final_message())["content"])


async def test_line_breaks_escaped_in_an_imported_file_are_line_breaks(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """README: a term's text may hold line breaks. A file whose strings carry Windows line
    breaks ("\\r\\n", escaped, as a script writing text typed on Windows leaves them; the
    topics JSON the same) was refused whole: "Definition: definition cannot contain control,
    invisible or direction characters", a character the moderator cannot see. The file's own
    line ends were already read as line breaks; now the ones inside its texts are too."""
    answer = await import_file(scene, "windows.toml", WINDOWS_TEXT)
    assert answer.startswith("Imported: 1 added"), answer
    [term] = await read_terms(store, scene.guild.id)
    assert term.definition == "Line one of the nightly job.\nLine two of it."
    assert term.boundary == "Not the reranker.\nNot the index either."
    _, card = await define(scene.fake, scene.alice, "zorblax", scene.channel)
    assert embed_of(card)["description"] == term.definition
    assert fields(card)["🚫 What it is not"] == term.boundary
    # The same file again changes nothing: it holds what the server holds.
    again = await import_file(scene, "windows.toml", WINDOWS_TEXT, dry_run=True)
    assert again.startswith("Dry run, nothing written. Would import: 0 added, 0 changed"), again
