"""Review of the last session (tests/outsider/PLAN.md, "Review of the last session
(review50)"): what forged47, left47, review48, outsider48 and swap48 left open, each fix's test
failing before it."""

from __future__ import annotations

import logging
import os
import socket
from pathlib import Path

import pytest

from bot.discord_app import health
from bot.discord_app.app import OUTDATED_FORM, GlossaryBot
from bot.discord_app.cogs.define import DM_HELP, MENTION_HELP
from bot.glossary import bundled_data_dir, load_glossary
from bot.heartbeat import STOPPED
from bot.storage import Store
from bot.term_storage import read_terms
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import buttons, define, embed_of, is_ephemeral
from tests.discord_app.term_commands import TERM, add_term, open_edit, submit

from .conftest import Scene
from .test_forged47 import form_submitted
from .test_left47 import moderator_answer

# --- items.inert: Discord's markup shown as typed ------------------------------------------------

# A value holding two masked links with Markdown between them, and marks that start a line after
# spaces (a quote, a heading) or a numbered list.
MARKUP = (
    "see [the docs](https://example.com/a) **now** ||later|| [click here](https://example.org/b)\n"
    "  > quoted\n"
    " # heading\n"
    "1. first"
)
SHOWN = (
    "see \\[the docs](https://example.com/a) \\*\\*now\\*\\* \\|\\|later\\|\\| "
    "\\[click here](https://example.org/b)\n"
    "  \\> quoted\n"
    " \\# heading\n"
    "1\\. first"
)


async def test_a_forms_text_given_back_shows_masked_links_and_line_marks_as_typed(
    scene: Scene, bot: GlossaryBot
) -> None:
    """`items.inert` (review48's one home) used discord.py's escape_markdown, whose masked-link
    rule escapes one "[" for a whole line from its first "[" to its last ")": what lies between
    was left as it was, so "What you typed:" rendered the bold, the spoiler and the second masked
    link ("click here" linking to an address not shown). A quote or heading after spaces and a
    numbered list rendered too. Now each mark is escaped."""
    handle = await form_submitted(scene, "gb:term-form:1", {"definition": MARKUP})
    answer = await handle.final_message()
    assert is_ephemeral(answer), answer
    content = answer["content"]
    assert content.startswith(OUTDATED_FORM), content
    assert content.endswith(f"**definition**: {SHOWN}"), content
    assert not scene.fake.pop_violations()


async def test_a_mentions_no_entry_echo_shows_markdown_between_brackets_as_typed(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """The same through `echo`, in public: "@Glossary [x](y) **zorbleflax** ||quux|| (z)" got
    "No entry for “\\[x](y) **zorbleflax** ||quux|| (z)”." as a reply, bold and a spoiler."""
    me = scene.fake.bot.mention
    await scene.fake.user_message(
        scene.alice, scene.channel, f"{me} [x](y) **zorbleflax** ||quux|| (z)"
    )
    answer = await scene.fake.wait_for_channel_message(scene.channel)
    content = answer["content"]
    assert "\\*\\*zorbleflax\\*\\* \\|\\|quux\\|\\|" in content, content
    assert "**zorbleflax**" not in content.replace("\\*", ""), content
    assert not scene.fake.pop_violations()


# --- custom ids at Discord's cap ------------------------------------------------------------------

LONG_TITLE = "Nightly retrieval reranking pipeline for enterprise knowledge search"


async def test_a_term_with_a_long_title_can_be_removed(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """`/term remove`'s Remove button carried the moderator's id, the term's revision and its
    id: with a title of 54 characters or more (its id a slug of up to 54), the custom id passed
    Discord's 100 characters, Discord refused the prompt (400) and the moderator got "Something
    went wrong on my side": such a term could not be removed from Discord. Now the id is cut to
    fit, and the term found by its revision."""
    added = await add_term(scene, dict(TERM, title=LONG_TITLE, other_names=""))
    assert added["content"].startswith("Added"), added
    [term] = await read_terms(store, scene.guild.id)
    assert len(term.id) == 54, term.id
    asked = await scene.fake.slash(
        scene.moderator, "term remove", {"term": term.id}, channel=scene.channel
    )
    prompt = await asked.final_message()
    assert prompt["content"].startswith(f"Remove “{LONG_TITLE}”"), prompt
    remove = buttons(prompt)["Remove"]
    assert len(remove) == 100, remove
    clicked = await scene.fake.click(scene.moderator, prompt, remove)
    [done] = await clicked.followups(1)
    assert done["content"] == f"Removed “{LONG_TITLE}”.", done
    assert await read_terms(store, scene.guild.id) == []
    assert not scene.fake.pop_violations()


async def test_a_cut_remove_button_tells_a_changed_term_and_a_gone_one(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """The cut id's answers when the term is not as shown: edited since (its revision changed),
    or removed (by another moderator's prompt)."""
    await add_term(scene, dict(TERM, title=LONG_TITLE, other_names=""))
    [term] = await read_terms(store, scene.guild.id)
    prompts = []
    for _ in range(2):
        asked = await scene.fake.slash(
            scene.moderator, "term remove", {"term": term.id}, channel=scene.channel
        )
        prompts.append(await asked.final_message())
    opened = await open_edit(scene, scene.moderator, term.id)
    edited = await submit(scene, scene.moderator, opened, {"definition": "A newer definition."})
    assert edited["content"].startswith("Saved"), edited
    clicked = await scene.fake.click(scene.moderator, prompts[0], buttons(prompts[0])["Remove"])
    [changed] = await clicked.followups(1)
    assert changed["content"].startswith(f"“{LONG_TITLE}” changed since you asked"), changed
    asked = await scene.fake.slash(
        scene.moderator, "term remove", {"term": term.id}, channel=scene.channel
    )
    fresh = await asked.final_message()
    clicked = await scene.fake.click(scene.moderator, fresh, buttons(fresh)["Remove"])
    await clicked.followups(1)
    clicked = await scene.fake.click(scene.moderator, prompts[1], buttons(prompts[1])["Remove"])
    [gone] = await clicked.followups(1)
    assert gone["content"] == "That term is already gone: nothing to remove.", gone
    assert not scene.fake.pop_violations()


LONG_ID = "retrieval-augmented-generation-with-knowledge-graphs-and-hybrid-dense-sparse-search"
LONG_ENTRIES = f'''
[[entries]]
id = "{LONG_ID}"
title = "Retrieval-augmented generation with knowledge graphs and hybrid dense sparse search"
category = "Retrieval & Context"
definition = "Retrieval that walks a knowledge graph and mixes dense and sparse search first."
plain = "Looking things up two ways before answering."

[[entries]]
id = "zorbix"
title = "Zorbix"
category = "Retrieval & Context"
definition = "A made-up retrieval step whose card offers the long entry."
related = ["{LONG_ID}"]
'''


async def test_an_operators_entry_with_a_long_id_opens_from_buttons_and_menus(
    scene: Scene, start_bot: StartBot, store: Store, tmp_path: Path
) -> None:
    """`check` passes an operator's entry of any id length (a Markdown entry's id is its
    title's slug), but the cards put ids into custom ids (100 characters, with a prefix and the
    asker's id): the card of every entry relating to one of 72+ characters was "Something went
    wrong on my side" (the button refused by its own template), one of 69+ had no working Plain
    words. Now a long id is carried as its head and a hash, and found again by it: the related
    button, the Plain words button and Explain terms' menu each open the card."""
    (tmp_path / "long.toml").write_text(LONG_ENTRIES, encoding="utf-8")
    served = load_glossary([bundled_data_dir(), tmp_path / "long.toml"])
    async with start_bot(store, glossary=served):
        _, card = await define(scene.fake, scene.alice, "zorbix", scene.channel)
        assert embed_of(card)["title"] == "Zorbix", card
        related = buttons(card)
        [long_button] = [label for label in related if label.startswith("Retrieval-augmented")]
        assert len(related[long_button]) <= 100, related
        pressed = await scene.fake.click(scene.alice, card, related[long_button])
        await pressed.response()
        opened = scene.fake.message(int(card["id"]))
        assert embed_of(opened)["title"].startswith("Retrieval-augmented generation with"), opened
        plain = await scene.fake.click(scene.alice, opened, buttons(opened)["Plain words"])
        await plain.response()
        shown = embed_of(scene.fake.message(int(card["id"])))
        assert "Looking things up two ways" in shown["description"], shown
        said = await scene.fake.user_message(
            scene.alice,
            scene.channel,
            "we tried Zorbix and retrieval-augmented generation "
            "with knowledge graphs and hybrid dense sparse search",
        )
        listed = await scene.fake.message_command(scene.alice, "Explain terms", said)
        menu_message = await listed.final_message()
        [menu] = [c for row in menu_message["components"] for c in row["components"]]
        values = [option["value"] for option in menu["options"]]
        assert all(len(value) <= 100 for value in values), values
        [long_value] = [value for value in values if value.startswith("retrieval-augmented")]
        picked = await scene.fake.select(scene.alice, menu_message, menu["custom_id"], [long_value])
        answer = await picked.final_message()
        assert embed_of(answer)["title"].startswith("Retrieval-augmented generation with"), answer
        assert not scene.fake.pop_violations()


# --- the help line ------------------------------------------------------------------------------

# What a member types asking the bot about itself, as it reaches the bot: with a zero-width space
# or a direction mark pasted in, in an input method's full-width letters, and words outsider48's
# list lacked.
ASKED_ABOUT_THE_BOT = (
    "help\u200b",
    "\u200fhelp",
    "ｈｅｌｐ？",
    "thanks\u200b!",
    "help me pls",
    "list commands",
    "how to use this bot?",
    "what’s this bot?",
)


async def test_asking_the_bot_about_itself_gets_the_help_line_everywhere(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """outsider48's help line matched the mention's text as it came: "help" with a zero-width
    space or a direction mark in it (the miss echoed without them: "No entry for “help”"), or
    typed in full-width forms, was a public "No entry" and a missed search; so were "help me
    pls", "list commands", "how to use this bot?" and "what’s this bot?". Now the patterns read
    the text without what shows nothing, in NFKC; in a channel, a thread and a DM. A real term
    near "help" and a server's alias "help" still open their cards."""
    me = scene.fake.bot.mention
    thread = scene.guild.add_thread(scene.channel, "questions", scene.bob)
    dm = scene.fake.dm_channel(scene.alice)
    for place, prefix, help_line in (
        (scene.channel, f"{me} ", MENTION_HELP),
        (thread, f"{me} ", MENTION_HELP),
        (dm, "", DM_HELP),
    ):
        for text in ASKED_ABOUT_THE_BOT:
            await scene.fake.user_message(scene.alice, place, prefix + text)
            answer = await scene.fake.wait_for_channel_message(place)
            assert answer["content"] == help_line, (place.name, text, answer)
    await store.flush()
    assert await store.top_misses(scene.guild.id) == []
    # Thanks after the bot, a zero-width space in it: the words before are the question.
    bob = scene.bob.mention
    await scene.fake.user_message(
        scene.alice, scene.channel, f"{bob} what's rag {me} thanks\u200b!"
    )
    answer = await scene.fake.wait_for_channel_message(scene.channel)
    assert "RAG" in answer["embeds"][0]["title"], answer
    await scene.fake.user_message(scene.alice, scene.channel, f"{me} helm")
    answer = await scene.fake.wait_for_channel_message(scene.channel)
    assert "HELM" in answer["embeds"][0]["title"], answer
    added = await moderator_answer(scene, "alias add", {"alias": "help", "term": "rag"})
    assert added.startswith("Added"), added
    await scene.fake.user_message(scene.alice, scene.channel, f"{me} help\u200b")
    answer = await scene.fake.wait_for_channel_message(scene.channel)
    assert "RAG" in answer["embeds"][0]["title"], answer


# --- titles inside the bot's code spans ---------------------------------------------------------


async def test_a_saved_or_accepted_terms_define_command_shows_its_title_as_typed(
    scene: Scene, bot: GlossaryBot
) -> None:
    """ "Added **top_p sampling** …: `/define top\\_p sampling`" and the member's DM on an
    accepted suggestion "Look it up with `/define top\\_k cut`": the title was escaped for
    Markdown inside a code span, which shows the backslash (a command to copy that is not the
    title; "_", "*", "~", "|" and "<" alike). Now the title in the code span is as typed."""
    added = await add_term(scene, dict(TERM, title="top_p sampling", other_names=""))
    content = added["content"]
    assert content.startswith("Added **top\\_p sampling**"), content  # bold: escaped
    assert ": `/define top_p sampling`." in content, content
    opened = await scene.fake.slash(
        scene.alice, "suggest", {"term": "top_k cut"}, channel=scene.channel
    )
    await opened.response()
    sent = await scene.fake.submit_modal(
        scene.alice, opened, {"definition": "Keeps the k likeliest tokens."}
    )
    assert (await sent.final_message())["content"].startswith("Thanks!")
    review = await scene.fake.slash(
        scene.moderator, "term review", {"category": "Fundamentals"}, channel=scene.channel
    )
    shown = await review.final_message()
    accept = await scene.fake.click(scene.moderator, shown, buttons(shown)["Accept…"])
    await accept.response()
    saved = await scene.fake.submit_modal(scene.moderator, accept, {})
    assert (await saved.final_message())["content"].startswith("Added"), saved
    told = await scene.fake.wait_for_channel_message(scene.fake.dm_channel(scene.alice))
    assert told["content"].endswith("Look it up with `/define top_k cut`."), told
    assert not scene.fake.pop_violations()


# --- the heartbeat's writer line (left48) ---------------------------------------------------------


def test_a_stop_leaves_a_beat_of_another_containers_bot_with_the_same_pid(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """review49's find: in containers every bot is pid 1, and containers on one host (host
    networking) share its name; a second container's bot, refused or stopping, read a running
    one's beat ("pid 1 on vm") as its own and wrote its stop over it: `health` said "stopped"
    of a running bot. The line now names the run too; a fresh beat of this pid and host but
    another run is left, with left48's warning. Here the other container's beat is this
    process's own line with another run; a beat of this run, and a line an older bot wrote
    (no run), are written over as before."""
    heartbeat = tmp_path / "heartbeat"
    assert health._write_heartbeat(heartbeat, None, False) is None  # a beat, by this run
    own = heartbeat.read_text("utf-8")
    writer = own.splitlines()[-1]
    assert writer.startswith(f"pid {os.getpid()} on {socket.gethostname()} run "), writer
    other = f"pid {os.getpid()} on {socket.gethostname()} run 0123abcd pidns 1"  # its namespace
    others = own.replace(writer, other)
    heartbeat.write_text(others, "utf-8")
    with caplog.at_level(logging.WARNING, logger=health.log.name):
        health.mark_stopped(heartbeat, on_error=True)
    assert heartbeat.read_text("utf-8") == others
    [warned] = [r.getMessage() for r in caplog.records if "may still run" in r.getMessage()]
    assert f"(pid {os.getpid()} on {socket.gethostname()} run 0123abcd:" in warned, warned
    older = own.replace(writer, f"pid {os.getpid()} on {socket.gethostname()}")
    for left in (own, older):
        heartbeat.write_text(left, "utf-8")
        health.mark_stopped(heartbeat, on_error=True)
        assert heartbeat.read_text("utf-8").startswith(STOPPED), left
