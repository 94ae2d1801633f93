"""Review of the last merges (tests/outsider/PLAN.md, "Review of the last merges (review42)"):
the real bot (discord.py) against the fake Discord, on real SQLite files."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from bot.discord_app.cogs.define import split_quotes
from tests.discord_app.helpers import embed_of

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
