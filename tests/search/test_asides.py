"""A question's closing aside ("..., the autograd part") says which part of it is meant: the entry
it names is asked about where the meaning ranks it above the other names written. Queries written
for this file (none from a relevance slice)."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex
from bot.search.query import aside


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("how does pytorch work out every gradient for me, the autograd part", "autograd part"),
        ("why is my first reply slow, the prefill stage?", "prefill stage"),
        ("what is mcp, that protocol thing 🙏", "protocol thing"),
        # no comma before it, or more than a short phrase: no aside
        ("why is the prefill stage slow", None),
        ("what is rope, the rotation that they apply to queries and keys in attention", None),
        ("the prefill stage", None),
    ],
)
def test_the_aside_a_question_ends_with(query: str, said: str | None) -> None:
    assert aside(query) == said


@pytest.mark.parametrize(
    ("query", "card"),
    [
        # the name written first was the card (PyTorch), or nothing was
        (
            "how does pytorch work out every gradient for me, the autograd part",
            "automatic-differentiation",
        ),
        ("why is time to first token bad on long prompts, the prefill phase", "prefill"),
        ("how does llama keep track of word order, the rope part", "rotary-position-embedding"),
        # an aside that describes the name asked about leaves its card alone
        ("what is sentencepiece, the tokenizer library from google", "sentencepiece"),
        ("what are logits, the raw scores before the softmax", "logits"),
        ("what is mcp, the protocol thing for tools", "mcp"),
    ],
)
def test_the_card_a_question_with_an_aside_gets(
    bundled_index: SearchIndex, query: str, card: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None
    assert result.entry.id == card
