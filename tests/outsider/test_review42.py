"""Review of the last merges (tests/outsider/PLAN.md, "Review of the last merges (review42)"):
the real bot (discord.py) against the fake Discord, on real SQLite files."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bot.discord_app.app import GlossaryBot
from bot.discord_app.cogs.define import split_quotes
from bot.discord_app.health import _write_heartbeat
from bot.heartbeat import check_heartbeat
from tests.discord_app.helpers import embed_of
from tests.fake_discord.models import EMBED_LINKS

from .conftest import Scene

RAG = "Retrieval-Augmented Generation (RAG)"


def test_a_quote_sign_in_a_code_block_is_code() -> None:
    """Attack 1: ">>> " and "> " inside a ``` block are code as typed (a Python REPL, a shell
    prompt), not a quote: the lines after the block are still the member's own; a code block
    inside a quote stays quoted."""
    repl = "```py\n>>> import numpy\n```\n@Glossary what is rag"
    assert split_quotes(repl) == (repl, "")
    shell = "```\n> npm i\n```\nwhat is this"
    assert split_quotes(shell) == (shell, "")
    assert split_quotes("> ```\n> x\n> ```\nmine") == ("mine", "```\nx\n```")
    # An unclosed ``` is shown as typed: the quote under it stays a quote.
    assert split_quotes("oops ```\n> @Glossary rag\nme too") == (
        "oops ```\nme too",
        "@Glossary rag",
    )


async def test_a_mention_after_a_pasted_repl_is_answered(scene: Scene, bot: GlossaryBot) -> None:
    """Attack 1: a member pasting a Python REPL session in a code block and asking the bot
    under it was ignored: the ">>> " in the block was read as a block quote to the end of the
    message, the mention as quoted. Attack 4: escaped backticks (Discord shows them; the
    mention between is live) were read as a code span, and ignored too."""
    fake = scene.fake
    me = fake.bot.mention
    said = f"```py\n>>> import numpy\n>>> numpy.zeros(3)\n```\n{me} what is rag"
    asked = await fake.user_message(scene.alice, scene.channel, said)
    answer = await fake.wait_for_channel_message(scene.channel)
    assert answer["message_reference"]["message_id"] == asked["id"], answer
    # The pasted block is what is asked about, not words to search.
    assert answer["embeds"], answer["content"]
    assert embed_of(answer)["title"] == RAG, answer
    # Where the words outside it open no card, the whole is searched, as before (offers).
    asked = await fake.user_message(scene.alice, scene.channel, f"{me} this?\n```\nkv cache\n```")
    answer = await fake.wait_for_channel_message(scene.channel)
    assert answer["message_reference"]["message_id"] == asked["id"], answer
    assert "kv cache" in answer["content"], answer
    asked = await fake.user_message(scene.alice, scene.channel, f"\\`{me} rag\\`")
    answer = await fake.wait_for_channel_message(scene.channel)
    # Answered (not ignored); its escapes are searched as typed (left: offers, not the card).
    assert answer["message_reference"]["message_id"] == asked["id"], answer


async def test_a_quote_of_another_members_mention_is_asked(scene: Scene, bot: GlossaryBot) -> None:
    """Attack 3 (held): "> @bob what is rag" quoted and a bare mention under it asks about the
    quote's words, not a "@bob" aside; attack 6 (held): a mention in a spoiler is said."""
    fake = scene.fake
    me = fake.bot.mention
    for said in (f"> {scene.bob.mention} what is rag\n{me}", f"||{me} rag||"):
        asked = await fake.user_message(scene.alice, scene.channel, said)
        answer = await fake.wait_for_channel_message(scene.channel)
        assert answer["message_reference"]["message_id"] == asked["id"], (said, answer)
        assert answer["embeds"], (said, answer["content"])
        assert embed_of(answer)["title"] == RAG, (said, answer)


async def test_a_card_post_deleted_before_its_edit_is_no_error(
    scene: Scene, bot: GlossaryBot, caplog: pytest.LogCaptureFixture
) -> None:
    """Attack 7 (held): a card Discord posted without its embed (no Embed Links, in a thread
    the bot was never told about), deleted before the bot edits it into the Embed Links line
    (404): no error reply, no traceback; one warning line, and the next mention is answered."""
    fake = scene.fake
    guild = scene.other_guild
    thread = guild.add_thread(scene.other_channel, "started meanwhile", scene.bob)
    for role in guild.roles.values():
        role.permissions &= ~EMBED_LINKS
    fake.fail_next("PATCH", "/channels/{channel_id}/messages/{message_id}", status=404)
    await fake.user_message(scene.alice, thread, f"{fake.bot.mention} what is rag")
    posted = await fake.wait_for_channel_message(thread)
    assert not posted["embeds"], posted
    asked = await fake.user_message(scene.alice, thread, f"{fake.bot.mention} kv cache")
    answer = await fake.wait_for_channel_message(thread)
    assert answer["message_reference"]["message_id"] == asked["id"], answer  # no error post
    assert not [r for r in caplog.records if r.exc_info], caplog.text
    assert "the channel or the message was deleted first" in caplog.text, caplog.text


def test_health_reads_every_lost_shard_of_a_big_process(tmp_path: Path) -> None:
    """Attack 11 (shards40): a process of many shards, most of them lost in an outage while
    one serves. `health` read 2,000 bytes of the heartbeat, cutting the lost shards' line (at
    about 120 shards): shards past the cut were not named, and a time cut short ("17333") read
    as a shard lost for 1.6e9 s: unhealthy at once, in the reconnect's first seconds."""
    path = tmp_path / "heartbeat"
    now = time.time()
    for first in range(1, 12):  # the cut falls inside a time for some of these
        lost = dict.fromkeys(range(first, first + 400), now - 5)
        assert _write_heartbeat(path, None, False, shards=lost) is None
        healthy, why = check_heartbeat(path, now=now)
        assert healthy, why
        assert f",{first + 399} not connected to Discord for 5 s (reconnecting)" in why, why
    # Past what is read (64 KiB), the newest are left out, never a time cut short.
    lost = dict.fromkeys(range(5000), now - 50)
    lost |= dict.fromkeys(range(5000, 9000), now - 5)
    assert _write_heartbeat(path, None, False, shards=lost) is None
    healthy, why = check_heartbeat(path, now=now)
    assert not healthy, why
    assert "for 50 s (more than 45 s)" in why, why
