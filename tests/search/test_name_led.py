"""Questions that write a name first and ask about another entry (issue #12, task "namelead"): a
closing aside ("..., the autograd part") says which part is meant, where the meaning ranks its
entry above the other names written; a description that asks what it is called ("..., what's
that ordering called") is not about the name it starts with. Queries written for this file
(none from a relevance slice)."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex
from bot.search.query import aside, asks_for_name


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


@pytest.mark.parametrize(
    ("clause", "asks"),
    [
        ("what s that ordering called", True),
        ("whats this failure mode called", True),
        ("what is that priority order called", True),
        ("what s that called", True),
        ("what is that technique called and do i need a special server for it", True),
        ("what s that called and can i avoid it", True),
        # the general field, or more than a short noun before "called": not only the name
        ("what s the general field called", False),
        ("what is that thing you do before training called and how long does it take", False),
        ("what s that called lol", False),
    ],
)
def test_a_clause_asking_what_a_kind_of_thing_is_called(clause: str, asks: bool) -> None:
    assert asks_for_name(clause) is asks


@pytest.mark.parametrize(
    ("query", "card"),
    [
        # System Prompt and Gradient Descent were the cards: the name only starts the description
        (
            "system prompt first, then the user, then tool output, and each can only override "
            "the ones below, what's that ordering called",
            "instruction-hierarchy",
        ),
        ("gradient descent keeps overshooting the minimum, what's that problem called", None),
        (
            "fine-tuning made my model forget what it knew before, what's that called and can i avoid it",
            None,
        ),
        # a description whose name is asked keeps its card
        (
            "kv cache split into fixed size blocks like virtual memory pages, what's that technique called",
            "paged-attention",
        ),
        ("llm makes up a citation that does not exist, whats that called", "hallucination"),
    ],
)
def test_a_description_asking_its_name_is_not_about_the_name_it_starts_with(
    bundled_index: SearchIndex, query: str, card: str | None
) -> None:
    result = bundled_index.search(query)
    assert result.entry_id == card
