"""review70 (PLAN.md, "review70"): left69's "thinking…" taken as shown, attacked with other
commands running in the same channel meanwhile (the in-process bot on the fake Discord, a real
SQLite file)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.discord_app.app import GlossaryBot
from bot.glossary.server_terms import ServerTerm
from bot.storage import Store
from bot.term_storage import TermChange, change_terms, read_terms
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import embed_of
from tests.resilience.helpers import warned

from .conftest import Scene
from .test_outsider69 import import_file
from .test_review69_discord import CALLBACK, GIVEN_UP, HANG, said
from .test_review70 import NAMES_WITH_BREAKS


async def test_a_thinking_taken_as_shown_beside_other_commands_in_the_channel(
    scene: Scene, start_bot: StartBot, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """Held on main 75238385. While a moderator's `/alias remove` waits on a "thinking…"
    Discord holds (taken as shown past the 3 s and VERDICT_WAIT), an admin's
    `/alias remove` and a member's `/define` run in the same channel: each is answered as its
    own first response, the held one's answer goes as its followup, and nothing is refused
    (the mark is the held interaction's, not the channel's nor the command's)."""
    fake = scene.fake
    caplog.set_level(logging.INFO)
    hold = fake.hold_answer(*CALLBACK)
    async with start_bot(store):
        try:
            async with warned(GIVEN_UP, HANG, logging.INFO):
                held = await fake.slash(
                    scene.moderator,
                    "alias remove",
                    {"alias": "no such alias"},
                    channel=scene.channel,
                    held_up=1.0,
                )
                await asyncio.wait_for(hold.taken.wait(), HANG)
                other = await fake.slash(
                    scene.admin,
                    "alias remove",
                    {"alias": "another missing alias"},
                    channel=scene.channel,
                    settle=False,  # the held answer is still under way
                )
                other_answer = await asyncio.wait_for(said(other), HANG)
                asked = await fake.slash(
                    scene.alice, "define", {"term": "kv cache"}, channel=scene.channel, settle=False
                )
                card = await asyncio.wait_for(asked.final_message(), HANG)
        finally:
            hold.release()
        answer = await asyncio.wait_for(said(held), HANG)
        await fake.settle()
    refused = fake.pop_violations()
    assert answer.startswith("This server has no alias “no such alias”"), answer
    assert other_answer.startswith("This server has no alias “another missing alias”"), other_answer
    assert embed_of(card)["title"].startswith("KV Cache"), card
    assert not refused, refused
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


async def test_a_name_with_a_line_break_is_one_problem_line_in_the_import_answer(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """`/term import` of a file whose names hold escaped line breaks or a tab: refused, each
    problem one bullet; the name was quoted with its line break, the bullet broken over lines
    in Discord. Now shown as the file writes it."""
    answer = await import_file(scene, "names.toml", NAMES_WITH_BREAKS)
    lines = answer.split("\n")
    assert lines[0] == "Nothing was imported: 3 problems in the file.", answer
    assert len(lines) == 4, answer
    assert all(line.startswith("• line ") for line in lines[1:]), answer
    assert "\r" not in answer, answer
    assert "\t" not in answer, answer
    assert "“Zorb\\\\r\\\\nOne”, Title" in answer, answer  # rendered as Zorb\\r\\nOne


def _lines(text: str, size: int) -> str:
    """`size` characters of `text` repeated, a line break every 50, no space at either end (as
    a form or an import stores a text)."""
    out = (text * (size // len(text) + 1))[:size]
    return "\n".join(out[i : i + 50] for i in range(0, size, 50))[:size].strip()


def at_every_cap(count: int) -> tuple[ServerTerm, ...]:
    """`count` terms with every field at its cap (title with acronym 256 characters, definition
    4,000, the other texts 1,024 each, 40 other names, 12 related), line breaks in every text."""
    return tuple(
        ServerTerm(
            id=f"zorb-{n}",
            title=f"Zorb {n:02d} " + ("quux " * 60)[: 256 - 8 - 8].strip(),
            acronym=f"ZBQ{n:02d}",
            category="Fundamentals",
            definition=_lines(f'What zorb {n} does, "quoted" and \\ slashed. ', 4000),
            summary=_lines(f"Zorb {n} in brief. ", 1024),
            boundary=_lines(f"Not zorb {n + 1}. ", 1024),
            importance=_lines(f"Why zorb {n} matters. ", 1024),
            plain=_lines(f"Zorb {n} plainly. ", 1024),
            keywords=tuple(f"zorbing {n} {k}" for k in range(10)),
            reference=f"https://example.com/zorb/{n}",
            aliases=tuple(f"zorbish {n} {k:02d}" for k in range(40)),
            related=tuple(f"zorb-{(n + k) % count}" for k in range(1, 13)),
        )
        for n in range(count)
    )


async def test_a_server_at_every_cap_with_line_breaks_imports_its_own_export_back(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """Held on main 75238385. outsider69's round trip (a server at its term cap, every field)
    with every field at its own cap too and line breaks in every text: `/term export` then
    `/term import` of that file changes nothing (the export writes a line break as `\\n`, so
    the TOML budget of 50 items a term is not spent on them)."""
    caps = (20, 2 * 1024 * 1024)
    terms = at_every_cap(caps[0])
    await change_terms(store, scene.guild.id, lambda *_: (TermChange(put=terms), None), 1)
    async with start_bot(store, term_caps=caps):
        asked = await scene.fake.slash(scene.moderator, "term export", {}, channel=scene.channel)
        exported = await asked.final_message()
        assert exported["content"].startswith("20 terms of this server"), exported
        data = scene.fake.attachment_bytes(exported["attachments"][0])
        assert b"\\n" in data
        answer = await import_file(scene, "ours.toml", data)
        assert answer.startswith("Nothing changed: the file holds this server's terms"), answer
        stored = await read_terms(store, scene.guild.id)
    assert sorted(stored, key=lambda t: t.id) == sorted(terms, key=lambda t: t.id)
