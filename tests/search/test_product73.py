"""product73: two names written, then a question pointing back at them ("we use rag and lora, what
is that"): which one "that" is nobody can tell, so both are one click away, never a third first:
the card of one with the other as its first offer, or the two as the first offers."""

from __future__ import annotations

import pytest

from bot.search.index import SearchIndex

# (text, the two names' entries): the task's example and review72's blind "two" probes
# (tests/search/review72_probes.tsv), which allow a card of either; here the other is offered first
TWO_THEN_THAT = [
    ("we use rag and lora, what is that", ("rag", "lora-qlora")),
    ("someone mentioned lora and rag, what is that", ("lora-qlora", "rag")),
    (
        "my boss keeps saying kv cache and quantization, what are those",
        ("kv-cache", "quantization"),
    ),
    ("saw tokenization and attention in a blog post, what is that", ("tokenization", "attention")),
    (
        "my teammate keeps talking about hallucination and prompt injection, what's that",
        ("hallucination", "prompt-injection"),
    ),
    ("someone at work brought up rlhf and fine-tuning, what is that", ("rlhf", "fine-tuning")),
    pytest.param(
        "heard about beam search and temperature today, what is that",
        ("beam-search", "temperature"),
        marks=pytest.mark.xfail(strict=True, reason="no card nor offer: left"),
    ),
]


@pytest.mark.parametrize(("text", "named"), TWO_THEN_THAT)
def test_two_names_then_that_offers_both(
    bundled_index: SearchIndex, text: str, named: tuple[str, str]
) -> None:
    result = bundled_index.search(text)
    offers = [s.id for s in result.suggestions]
    if result.entry is not None:
        assert result.entry.id in named, result
        other = named[1] if result.entry.id == named[0] else named[0]
        assert offers[:1] == [other], result
    else:
        assert set(offers[:2]) == set(named), result
