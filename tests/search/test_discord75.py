"""Probes for task discord75 (issue #12 off-topic): a bot that lives on Discord is asked Discord
questions in its channels (embeds, webhooks, slash commands, intents, shards, tokens, roles ...),
and must not answer them with an AI glossary card; real AI questions that say "discord" or "bot"
in passing keep theirs. discord75_probes.tsv says when and how they were written. The rule:
`SearchIndex._platform_noun_offered`, Discord's own nouns (`platform_words.PLATFORM_NOUNS`) read
as no name of the field where the text is on Discord or leans off the field
(bench/results/semantic.md, "discord75")."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex
from bot.search.platform_words import on_platform, platform_nouns

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING = {
    # "embed" used as Discord's noun, but the text neither says discord nor leans off the field
    # ("max length", "description" are the field's words too): Embeddings, as before
    "what's the max length of an embed description",
    # no Discord noun: the meaning reads "role", "rate limited", "permissions" as the field's
    # (a system role, guardrails, the lethal trifecta's tools)
    "how do i give a role to a user with my bot",
    "my bot keeps getting rate limited by discord",
    "what permissions does my bot need to send messages",
    # offered first, not carded: "my discord bot" pulls the meaning to system prompts
    "my discord bot hallucinates answers how do i stop that",
    # "token limit": the Token card, Context Windows offered first
    "what's a token limit in my bot's llm",
}
PROBES = ProbeFile("discord75_probes.tsv", STILL_FAILING)

test_a_discord_question_gets_no_glossary_card = PROBES.test("discord", expect=no_card)
test_an_ai_question_saying_discord_in_passing_keeps_its_card = PROBES.test(
    "inpassing", expect=the_asked_card
)
test_the_probes_are_the_ones_written = PROBES.counted({"discord": 48, "inpassing": 25})


@pytest.mark.parametrize(
    "query",
    [
        # each carded Embeddings before `_platform_noun_offered` ("embed(s)" a form of
        # "embedding", the meaning agreeing): now an offer of it at most
        "how do i send embeds with my discord bot",
        "how do i make an embed in discord",
        "can a discord webhook send embeds",
        "how do i mention a user in an embed",
    ],
)
def test_discord_s_embed_is_no_embeddings_card(bundled_index: SearchIndex, query: str) -> None:
    result = bundled_index.search(query)
    assert result.entry is None, result


@pytest.mark.parametrize(
    "query",
    [
        "how do i embed documents for rag",  # the verb, the field's name beside it
        "how do i embed text",  # the verb, no Discord
        "how do i use embeddings for my discord bot's search",  # the name written as it is
        "how do i store embeds from my discord bot in a vector database",  # the field's name
    ],
)
def test_the_field_s_embedding_keeps_its_card(bundled_index: SearchIndex, query: str) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None, result
    assert result.entry.id == "embeddings", result


def test_discord_s_words_are_read_from_the_normalised_text() -> None:
    assert on_platform("whats the difference between discord py and discord js")
    assert on_platform("can a webhook post here")
    assert not on_platform("how do i make a chat bot with a system prompt")
    assert platform_nouns("send embeds with a webhook") == ["embeds", "webhook"]
    assert platform_nouns("how do i make a chat bot") == []
    assert platform_nouns("how do i embed my discord messages") == []  # the verb
    assert platform_nouns("how do i make an embed in discord") == ["embed"]
