"""Entry names in their everyday sense (bot/search/everyday.py) against the bundled glossary.
Sentences written for this file (none from a relevance slice or everyday_probes.tsv)."""

from __future__ import annotations

import pytest

from bot.glossary.keys import normalize
from bot.search import SearchIndex
from bot.search.everyday import NEAR_COSINE, common_words, everyday_sense, is_common


@pytest.mark.parametrize("name", ["checkpoint", "rubric", "sandbox", "swiss cheese", "token"])
def test_everyday_words_are_common(name: str) -> None:
    assert is_common(name)


@pytest.mark.parametrize("name", ["logits", "softmax", "overfitting", "swiglu", "layernorm"])
def test_jargon_is_not_common(name: str) -> None:
    assert not is_common(name)


def test_the_list_is_large_and_plain() -> None:
    words = common_words()
    assert len(words) > 40_000
    assert all(w.isalpha() and w == w.lower() for w in words)


EVERYDAY = "suggest"  # the entry offered, no card: the user may still mean it
FIELD = "match"


@pytest.mark.parametrize(
    ("query", "entry_id", "status"),
    [
        (
            "is it normal to see hallucinations after three nights without sleep on a night shift",
            "hallucination",
            EVERYDAY,
        ),
        (
            "which swiss cheese melts best for a grilled sandwich with ham",
            "swiss-cheese-model",
            EVERYDAY,
        ),
        ("how often should i save a checkpoint when training a big model", "checkpoint", FIELD),
        ("why is my validation loss going up after epoch three", "validation-loss", FIELD),
        ("what temperature do people use when sampling from an llm", "temperature", FIELD),
        ("how do i give my coding agent a sandbox so it cannot delete files", "sandbox", FIELD),
        ("what makes a good rubric for grading chatbot replies with an llm judge", "rubric", FIELD),
        ("how do i load a checkpoint in pytorch", "checkpoint", FIELD),
        ("what is a sandbox", "sandbox", FIELD),  # too few words left to judge
        ("what does alignment mean", "alignment", FIELD),
        ("checkpoint", "checkpoint", FIELD),
        ("checkpiont", "checkpoint", FIELD),
        ("rubrics", "rubric", FIELD),
    ],
)
def test_everyday_senses_get_an_offer_and_the_field_keeps_its_cards(
    bundled_index: SearchIndex, query: str, entry_id: str, status: str
) -> None:
    result = bundled_index.search(query)
    assert result.status == status
    shown = result.entry.id if result.entry else result.suggestions[0].id
    assert shown == entry_id
    assert (result.entry is None) == (status == EVERYDAY)


def _span(text: str, name: str) -> tuple[str, int, int]:
    text = normalize(text)
    start = text.index(name)
    return text, start, start + len(name)


def test_the_rest_of_the_sentence_decides(bundled_index: SearchIndex) -> None:
    semantic = bundled_index.semantic
    assert semantic is not None
    far = _span("which swiss cheese melts best for a grilled sandwich with ham", "swiss cheese")
    near = _span("why does the swiss cheese model need several independent layers", "swiss cheese")
    assert everyday_sense(semantic, *far, 0.0)
    assert not everyday_sense(semantic, *near, 0.0)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("what is a checkpoint", "checkpoint"),  # one word of its own left: nothing to judge
        ("my cat knocked the logits off the shelf at grandma's farm", "logits"),  # jargon
    ],
)
def test_what_is_not_judged(bundled_index: SearchIndex, text: str, name: str) -> None:
    semantic = bundled_index.semantic
    assert semantic is not None
    assert not everyday_sense(semantic, *_span(text, name), 0.0)


def test_a_sentence_near_an_entry_is_not_judged(bundled_index: SearchIndex) -> None:
    semantic = bundled_index.semantic
    assert semantic is not None
    far = _span("which swiss cheese melts best for a grilled sandwich with ham", "swiss cheese")
    assert not everyday_sense(semantic, *far, NEAR_COSINE)
