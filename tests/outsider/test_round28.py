"""Outsider round 28 (tests/outsider/PLAN.md, outsider40): a moderator's first week on a new
server. The real bot against the fake Discord, a real SQLite file."""

from __future__ import annotations

import re
import signal
from pathlib import Path

import pytest

from bot.discord_app.app import STOP_SECONDS, GlossaryBot
from bot.storage import Store
from bot.term_storage import read_terms
from tests.discord_app.helpers import is_ephemeral
from tests.discord_app.term_commands import add_term, open_add, submit
from tests.resilience.botproc import BotProcess

from .conftest import Scene


async def _suggest(scene: Scene, name: str) -> str:
    # The name typed in the form: `/suggest` given one it knows says so before any form opens
    # (outsider49); the form's submit checks it again, here.
    opened = await scene.fake.slash(scene.bob, "suggest", {}, channel=scene.channel)
    assert (await opened.response())["type"] == 9
    submitted = await scene.fake.submit_modal(
        scene.bob, opened, {"title": name, "definition": "The nightly job our team runs."}
    )
    answer = await submitted.final_message()
    assert is_ephemeral(answer)
    return str(answer["content"])


@pytest.mark.parametrize(
    ("name", "held", "title"),
    [
        ("R\u0410G", "RAG", "Retrieval-Augmented Generation (RAG)"),  # a Cyrillic А
        ("\u0396orblax", "Zorblax", "Zorblax"),  # a Greek Zeta: the server's own term
        ("zb\u0445", "zbx", "Zorblax"),  # a Cyrillic х: the term's other name
    ],
    ids=["bundled", "server-term", "other-name"],
)
async def test_a_suggestion_that_looks_like_a_name_is_not_queued(
    scene: Scene, bot: GlossaryBot, store: Store, name: str, held: str, title: str
) -> None:
    """Plan line G3: a member's `/suggest RАG` (a Cyrillic А, a Russian keyboard layout) or
    `Ζorblax` (a Greek Zeta) was queued ("Thanks! … is with this server's moderators"), though
    no term may take a name that looks like another entry's: Accept…'s save refused it ("looks
    like “RAG” … Choose another name"), so the moderator could only reject it, and the member
    never learnt that the card was there. Now the member is told which card the name looks
    like, and nothing is queued, as for a name the glossary has."""
    assert (await add_term(scene))["content"].startswith("Added **Zorblax**")
    text = await _suggest(scene, name)
    assert text == (
        f"“{name}” looks like “{held}”, a name of **{title}**, which `/define` opens: members "
        "could not tell them apart, so no term may take it. Nothing was queued."
    ), text
    assert await store.open_suggestions(scene.guild.id) == []


async def test_a_suggestion_that_looks_like_an_alias_is_not_queued(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Plan line G3, a server alias: `/alias add nightly zorb` for Zorblax; `/suggest` of it
    with a Cyrillic о is told it looks like that alias of Zorblax."""
    await add_term(scene)
    added = await scene.fake.slash(
        scene.moderator,
        "alias add",
        {"alias": "nightly zorb", "term": "zorblax"},
        channel=scene.channel,
    )
    assert "now opens" in (await added.final_message())["content"]
    name = "nightly z\u043erb"
    text = await _suggest(scene, name)
    assert text.startswith(f"“{name}” looks like “nightly zorb”, a name of **Zorblax**"), text
    assert await store.open_suggestions(scene.guild.id) == []


async def test_a_suggestion_in_another_script_that_looks_like_nothing_is_queued(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """The other side of G3: a name wholly in another script that looks like no name here is
    a suggestion like any other."""
    text = await _suggest(scene, "кэш подсказок")
    assert text.startswith("Thanks! “кэш подсказок” is with this server's moderators."), text
    assert [s.title for s in await store.open_suggestions(scene.guild.id)] == ["кэш подсказок"]


async def test_a_title_that_fits_with_too_long_an_acronym_names_both(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Plan line W1: `/term add acronym:ZQX` with a title of 256 characters (the form's box
    stops there) was refused "title longer than 256 characters", which the moderator's title
    was not: the card's title is the title with its acronym, “… (ZQX)”. Now the answer says so,
    with the length to cut."""
    title = "Zorbic " + "W" * 249
    assert len(title) == 256
    opened = await open_add(scene, scene.moderator, category="Retrieval & Context", acronym="ZQX")
    answer = await submit(
        scene, scene.moderator, opened, {"title": title, "definition": "The nightly job."}
    )
    text = answer["content"]
    assert "title longer than 256 characters" not in text, text
    assert (
        "the card's title, the title with its acronym (“Zorbic WWW… (ZQX)”), would be 262 "
        "characters; at most 256: shorten the title or the acronym by 6"
    ) in text, text
    assert await read_terms(store, scene.guild.id) == []


HAND_WRITTEN = """\
# Our team's words, written by hand: what the form asks, no ids
[[entries]]
title = "Zorblax"
category = "Retrieval & Context"
definition = "The team's nightly batch job, now run twice a night."
aliases = ["zbx"]

[[entries]]
title = "Blorptex Queue"
category = "Retrieval & Context"
definition = "The morning job that warms the caches Zorblax filled."
related = ["Zorblax"]
"""


async def _import(scene: Scene, data: str, **options: object) -> str:
    handle = await scene.fake.slash(
        scene.moderator,
        "term import",
        {"file": scene.fake.add_attachment("ours.toml", data), **options},
        channel=scene.channel,
    )
    message = await handle.final_message()
    assert is_ephemeral(message)
    return str(message["content"])


async def test_a_hand_written_toml_without_ids_imports_as_the_form_would_name_them(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Plan line F2: a moderator writes the file by hand (or in another tool) with the fields
    the form asks: title, category, definition, other names, related. It was refused whole,
    "line 2, “Zorblax”, Id: missing required field" for each entry, a field the form never
    shows and the README's rules say is a slug of the title. Now an entry without an id takes
    one as the form gives it: a term the form wrote under that title is changed, not replaced,
    and the same file again changes nothing."""
    assert (await add_term(scene))["content"].startswith("Added **Zorblax**")
    done = await _import(scene, HAND_WRITTEN)
    assert done.startswith("Imported: 1 added, 1 changed, 0 removed."), done
    terms = {t.id: t for t in await read_terms(store, scene.guild.id)}
    assert sorted(terms) == ["blorptex-queue", "zorblax"]
    assert terms["zorblax"].definition.endswith("now run twice a night.")
    assert terms["blorptex-queue"].related == ("zorblax",)
    again = await _import(scene, HAND_WRITTEN, dry_run=True)
    assert again.startswith("Dry run, nothing written. Would import: 0 added, 0 changed"), again


async def test_two_entries_without_ids_under_one_title_are_a_name_clash(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """F2's other side: two id-less entries titled alike are refused as the names they share,
    at the second's line, and nothing is written."""
    twice = HAND_WRITTEN.replace('title = "Blorptex Queue"', 'title = "zorblax"')
    text = await _import(scene, twice)
    assert text.startswith("Nothing was imported"), text
    assert (
        "line 8, “zorblax”, Title: “zorblax” is already a name of “Zorblax” on line 2 of this file"
        in text
    )
    assert await read_terms(store, scene.guild.id) == []


RECONNECT = r"Attempting a reconnect in (\d+\.\d+)s"


async def test_a_stop_while_discord_is_unreachable_does_not_wait_for_its_deadline(
    scene: Scene, tmp_path: Path
) -> None:
    """Plan line U1: the README's "No Discord application yet?" run, the fake stopped (Ctrl-D),
    then the bot stopped too (Ctrl-C), as a self-hoster stops a bot that lost Discord (an
    outage, the network down). It took 9 s to exit, idle: discord.py sleeps its reconnect
    backoff (up to minutes) and closing the client does not wake it, so the stop waited for
    its 7 s deadline, near a container's 10 s grace. Now a bot between connections ends its
    connection attempts at once. (Timed: waiting out the deadline is the fault; the backoff
    slept through is made longer than the deadline first.)"""
    await stopped_while_unreachable(scene, tmp_path, RECONNECT)


async def stopped_while_unreachable(
    scene: Scene, tmp_path: Path, reconnect: str, within: float = 120.0, **settings: str
) -> None:
    """`glossary-bot run` (with `settings`) loses the fake Discord, then gets SIGTERM while it
    sleeps a reconnect backoff (the line `reconnect`, its seconds) longer than the stop's
    deadline: it must exit cleanly before that deadline."""
    async with BotProcess(scene.fake, scene.db_path, cwd=tmp_path, **settings) as bot:
        await scene.fake.stop()  # Discord gone: the bot retries, sleeping longer each time
        count = 1
        while True:
            line = await bot.wait_for_output(reconnect, within=within, count=count)
            match = re.search(reconnect, line)
            assert match is not None
            if float(match[1]) > STOP_SECONDS + 2:  # the stop comes during this sleep
                break
            count += 1
        bot.send_signal(signal.SIGTERM)
        assert await bot.exited(within=STOP_SECONDS - 1) == 0, bot.output
    assert "stopping: flushing counts and closing the connection" in bot.output
    assert "Traceback" not in bot.output
