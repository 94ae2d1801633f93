"""product73: the product leftovers of the eighth session (tests/outsider/PLAN.md, its
"product73" section), through the fake Discord and the real discord.py client."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from bot.term_storage import read_terms
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import buttons, define, footer, is_ephemeral

from .conftest import Scene
from .test_frame72 import _form
from .test_left47 import moderator_answer
from .test_product71 import _run

# -- 1. a name of emoji or symbols alone: /suggest and the term form agree --

# Search reads emoji and symbols as said around a term ("rag 🙏"): "what is 🔧" finds nothing.
NO_WORDS = "has no letter or digit: search reads emoji and symbols as said around the term asked"


async def test_suggest_refuses_a_name_of_emoji_alone_as_the_term_form_does(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Failed before: `/suggest term:🔧` opened the form and its submit said "Thanks!", queued
    for the moderators, whose **Accept…** form then refused the title "🔧" ("only the wording
    of a question"). Now `/suggest`, its form's submit, the term form and `/alias add` give one
    reason, which fits the name; nothing is queued or stored."""
    fake = scene.fake
    asked = await fake.slash(scene.alice, "suggest", {"term": "🔧"}, channel=scene.channel)
    said = (await asked.final_message())["content"]
    assert said.startswith(f"“🔧” {NO_WORDS}"), said
    assert said.endswith("Use a name with a letter or digit. Nothing was queued."), said
    opened = await fake.slash(scene.alice, "suggest", {}, channel=scene.channel)
    assert (await opened.response())["type"] == 9
    sent = await fake.submit_modal(
        scene.alice, opened, {"title": "🔧 ★", "definition": "The wrench we use."}
    )
    said = (await sent.final_message())["content"]
    assert said.startswith(f"“🔧 ★” {NO_WORDS}"), said
    assert await store.open_suggestions(scene.guild.id) == []

    added = await _form(
        scene, "term add", {"category": "Fundamentals"}, {"title": "🔧", "definition": "Ours."}
    )
    assert added.startswith("Nothing was saved"), added
    assert f"“🔧” {NO_WORDS}" in added, added
    assert await read_terms(store, scene.guild.id) == []
    aliased = await moderator_answer(scene, "alias add", {"alias": "🔧", "term": "lora"})
    assert f"“🔧” {NO_WORDS}" in aliased, aliased
    assert await store.aliases(scene.guild.id) == {}
    # A name with a letter beside the emoji is a name, as before.
    opened = await fake.slash(
        scene.alice, "suggest", {"term": "🔧 zorbwrench"}, channel=scene.channel
    )
    assert (await opened.response())["type"] == 9


async def test_a_miss_of_emoji_alone_says_why_and_offers_no_suggestion(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Failed before: `/define 🔧` was "No entry … ask a moderator to add it as an alias" with
    **Suggest it**, and /stats listed the miss, for a name no moderator could add. Now the
    reason, no button, no miss, as for Discord markup (product72)."""
    _, answer = await define(scene.fake, scene.bob, "🔧", scene.channel)
    assert answer["content"].startswith(f"No entry for “🔧”. “🔧” {NO_WORDS}"), answer
    assert "Suggest it" not in buttons(answer), answer
    assert is_ephemeral(answer), answer
    await store.flush()
    assert await store.top_misses(scene.guild.id) == []


async def test_a_suggestion_of_emoji_alone_queued_before_is_shown_with_what_to_do(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Queued before `/suggest` refused it: `/term review` says why its name cannot be a
    term's and what the moderator can do; **Accept…** opens the form with it, whose save
    refuses it (Edit again), and saves under another title, accepting the suggestion. Failed
    before: the review showed nothing of it, so the refusal came only at the form's save."""
    fake, mod = scene.fake, scene.moderator
    await store.add_suggestion(scene.guild.id, scene.alice.id, "🔧", "The wrench we use.")
    review = await fake.slash(
        mod, "term review", {"category": "Fundamentals"}, channel=scene.channel
    )
    shown = await review.final_message()
    fields = {f["name"]: f["value"] for f in shown["embeds"][0]["fields"]}
    assert fields["Its name"].startswith(f"“🔧” {NO_WORDS}"), fields
    assert fields["Its name"].endswith(
        "Accept… under another title (the member is told it), or Reject."
    ), fields
    accept = buttons(shown)["Accept…"]
    opened = await fake.click(mod, shown, accept)
    assert (await opened.response())["type"] == 9
    refused = await (await fake.submit_modal(mod, opened, {})).final_message()
    assert refused["content"].startswith("Nothing was saved"), refused
    assert f"“🔧” {NO_WORDS}" in refused["content"], refused
    opened = await fake.click(mod, shown, accept)
    assert (await opened.response())["type"] == 9
    saved = await (await fake.submit_modal(mod, opened, {"title": "Zorbwrench"})).final_message()
    assert saved["content"].startswith("Added **Zorbwrench**"), saved
    assert "Accepted the suggestion" in saved["content"], saved
    assert await store.open_suggestions(scene.guild.id) == []


# -- 2. the framing rule, said: any case; words said to the bot on their own are names --

IN_ANY_CASE = "which search leaves out around the term asked, in any case (“IT” reads as “it”)"
SAID_TO_THE_BOT = "words said to the bot on their own (“thanks”, “ok”, “hi”) may be names."


async def test_the_framing_refusal_says_the_rule_it_follows(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """ "IT" (information technology) as an alias or a term's acronym is refused: search reads
    any case alike, and "it" is the "what is it" of every question. Failed before: the reason
    said neither that capitals do not help nor why "ok" is taken where "pls" is not."""
    said = await moderator_answer(scene, "alias add", {"alias": "IT", "term": "lora"})
    assert f"“IT” is only the wording of a question (or filler), {IN_ANY_CASE}" in said, said
    assert said.endswith(SAID_TO_THE_BOT), said
    added = await _form(
        scene,
        "term add",
        {"category": "Fundamentals", "acronym": "IT"},
        {"title": "Information Technology", "definition": "Our helpdesk."},
    )
    assert added.startswith("Nothing was saved"), added
    assert IN_ANY_CASE in added, added
    # lower case says no case; the rule's other half holds
    said = await moderator_answer(scene, "alias add", {"alias": "pls", "term": "lora"})
    assert "“pls” is only the wording of a question (or filler), which search leaves out " in said
    assert "in any case" not in said, said
    said = await moderator_answer(scene, "alias add", {"alias": "ok", "term": "lora"})
    assert said.startswith("Added"), said


# -- 3. a card's footer quotes what matched, whatever the strategy --

# (question, what its card's footer quotes and how it matched): a typo, an acronym, a plural,
# a description, each asked inside a longer question.
FOOTERS = {
    "so what is kv cahce in this context?": 'matched "kv cahce" as a typo',
    "ok so what does rlhf stand for": 'matched "rlhf" as an acronym',
    "what are kv caches?": 'matched "kv caches" as a plural',
    "when my loss spikes after warmup, what is gradient clipping?": (
        'matched "gradient clipping" by the name written in it'
    ),
}


async def test_a_card_found_inside_a_question_quotes_what_matched_not_the_question(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """Failed before: each footer quoted the whole question (`matched "so what is kv cahce in
    this context?" as a typo`); polish72 fixed it for a server's alias only. Now the name or the
    question's term, in /define and a mention alike; a term typed alone is quoted as typed."""
    fake = scene.fake
    async with start_bot(store):
        for asked, said in FOOTERS.items():
            _, card = await define(fake, scene.bob, asked, scene.channel)
            assert f" · {said}" in footer(card), (asked, card)
            await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} {asked}")
            mentioned = await fake.wait_for_channel_message(scene.channel)
            assert f" · {said}" in footer(mentioned), (asked, mentioned)
        _, card = await define(fake, scene.bob, "KV Cahce?", scene.channel)
        assert ' · matched "KV Cahce?" as a typo' in footer(card), card


# -- 5. --help and --version with standard output closed --


@pytest.mark.parametrize(
    ("arguments", "what"),
    [
        (["--help"], "help"),
        (["-h"], "help"),
        (["check", "--help"], "help"),
        (["--version"], "version"),
    ],
)
def test_help_with_stdout_closed_says_so_in_one_line(
    tmp_path: Path, arguments: list[str], what: str
) -> None:
    """Failed before: started with stdout closed (`>&-`), `--help` printed nothing and exited 0,
    so the operator learnt nothing. Now one line on stderr and exit 1, as on a full disk."""
    closed = _run(
        ["sh", "-c", 'exec "$@" >&-', "sh", sys.executable, "-m", "bot", *arguments],
        tmp_path,
        stderr=subprocess.PIPE,
    )
    said = f"glossary-bot: error: cannot write the {what}: standard output is closed\n"
    assert (closed.returncode, closed.stderr) == (1, said)


@pytest.mark.parametrize(
    "arguments", [["--help"], ["check", "--help"], ["--version"], ["search", "rag"]]
)
def test_help_into_a_pipe_its_reader_closed_exits_0_quietly(
    tmp_path: Path, arguments: list[str]
) -> None:
    """A pipe whose reader is gone (`--help | head -0`) is no error, as for every command
    (`export | head`): exit 0, nothing on stderr. Failed before without PYTHONUNBUFFERED (an
    operator's shell): exit 120 and "Exception ignored … BrokenPipeError", Python's flush at
    exit failing again; `search` too."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = _run(
            [sys.executable, "-m", "bot", *arguments],
            tmp_path,
            stdout=write,
            stderr=subprocess.PIPE,
        )
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (0, "")
