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


@pytest.mark.parametrize(
    ("query", "entry_id"),
    [
        (
            "is it normal to see hallucinations after three nights without sleep on a night shift",
            "hallucination",
        ),
        ("which swiss cheese melts best for a grilled sandwich with ham", "swiss-cheese-model"),
    ],
)
def test_a_name_in_its_everyday_sense_gets_an_offer_not_a_card(
    bundled_index: SearchIndex, query: str, entry_id: str
) -> None:
    result = bundled_index.search(query)
    assert result.status == "suggest"
    assert result.entry is None
    assert result.suggestions[0].id == entry_id  # still offered: the user may mean it


@pytest.mark.parametrize(
    ("query", "entry_id"),
    [
        ("how often should i save a checkpoint when training a big model", "checkpoint"),
        ("why is my validation loss going up after epoch three", "validation-loss"),
        ("what temperature do people use when sampling from an llm", "temperature"),
        ("how do i give my coding agent a sandbox so it cannot delete files", "sandbox"),
        ("what makes a good rubric for grading chatbot replies with an llm judge", "rubric"),
        ("how do i load a checkpoint in pytorch", "checkpoint"),
        ("what is a sandbox", "sandbox"),  # too few words left to judge
        ("what does alignment mean", "alignment"),
        ("checkpoint", "checkpoint"),
        ("checkpiont", "checkpoint"),
        ("rubrics", "rubric"),
    ],
)
def test_questions_about_the_field_keep_their_cards(
    bundled_index: SearchIndex, query: str, entry_id: str
) -> None:
    result = bundled_index.search(query)
    assert result.status == "match"
    assert result.entry is not None
    assert result.entry.id == entry_id


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
