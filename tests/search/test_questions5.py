"""Fifth round of question rules: a tag question names what the chat asks about ("..., is it the
paged attention?"), and a name written with a hyphen dropped ("multihead attention") is still
that name in running text. Queries written for this file before the rules (none from a
relevance slice)."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex
from bot.search.query import tagged


@pytest.mark.parametrize(
    ("core", "tag"),
    [
        ("why is vllm so much faster is it the paged attention", "paged attention"),
        ("llama cpp got faster on my mac is that the speculativ decoding", "speculativ decoding"),
        ("our scores jumped could it be benchmark contamination", "benchmark contamination"),
        ("my rag bot answers wrong or is it the chunking", "chunking"),
        ("answers got worse was it because of the quantization", "quantization"),
        ("is it the kv cache", None),  # the question itself, no tag after a statement
        ("is it worth it to learn cuda", None),
        ("why is it the default", None),
    ],
)
def test_the_tag_of_a_tag_question(core: str, tag: str | None) -> None:
    assert tagged(core) == tag


def _answer(index: SearchIndex, query: str) -> tuple[str | None, list[str]]:
    result = index.search(query)
    return result.entry_id, [s.id for s in result.suggestions]


@pytest.mark.parametrize(
    ("query", "card"),
    [
        (
            "why is vllm so much faster than my script, is it the paged attention?",
            "paged-attention",
        ),
        (
            "llama cpp got faster on my mac, is that the speculativ decoding?",
            "speculative-decoding",
        ),
        ("vram usage doubled overnight, is that the kv cache?", "kv-cache"),
        # tag questions that had their card before the rule keep it
        ("my replies got way faster after the upgrade, is it the kv cache?", "kv-cache"),
        (
            "our eval scores jumped suspiciously, could it be benchmark contamination?",
            "benchmark-contamination",
        ),
        ("is it the kv cache", "kv-cache"),
        # a comparison whose first side is mistyped asks about the name it spells
        ("speculativ decoding or medusa heads for faster inference", "speculative-decoding"),
        ("mixure of experts vs dense models for a small budget", "mixture-of-experts"),
        ("quantizaton vs distillation for phones", "quantization"),
        ("open source guardrials or a moderation api for my chatbot", "guardrails"),
        # "tomatos" is one typo from no long name: no card for either side
        ("tomatos vs potatos for a salad", None),
    ],
)
def test_the_card_a_question_gets(bundled_index: SearchIndex, query: str, card: str | None) -> None:
    assert _answer(bundled_index, query)[0] == card


@pytest.mark.parametrize(
    ("text", "entry"),
    [
        ("why does multihead attention split into heads", "multi-head-attention"),
        ("mixtureofexperts models are cheap to run", "mixture-of-experts"),
    ],
)
def test_a_name_with_its_hyphen_dropped_is_mentioned(
    bundled_index: SearchIndex, text: str, entry: str
) -> None:
    assert entry in [m.entry.id for m in bundled_index.find_named_terms(text)]


def test_a_word_split_in_two_is_still_no_name(bundled_index: SearchIndex) -> None:
    # "a gent" is not "agent": a name's word split across two written words links nothing
    assert "ai-agents" not in [
        m.entry.id for m in bundled_index.find_named_terms("a gent walked in")
    ]
