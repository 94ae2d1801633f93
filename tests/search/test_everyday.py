"""Entry names in their everyday sense (bot/search/everyday.py) against the bundled glossary.
Sentences written for this file (none from a relevance slice or everyday_probes.tsv)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.glossary import load_glossary
from bot.glossary.keys import normalize
from bot.search import SearchIndex
from bot.search.everyday import NEAR_COSINE, common_words, everyday_sense, is_common
from bot.search.local import compile_local, with_vectors
from bot.search.semantic.term_vectors import TermVectors

from .server_term_meanings import RAID_TAX, STANDUP_BINGO, TERMS


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


@pytest.mark.parametrize(
    ("query", "term_id"),
    [
        ("how much raid tax do we pay after the dungeon run on friday", RAID_TAX.id),
        ("who won standup bingo at the morning meeting yesterday", STANDUP_BINGO.id),
    ],
)
def test_a_servers_own_term_in_its_own_sense_keeps_its_card(
    bundled_index: SearchIndex, tmp_path: Path, query: str, term_id: str
) -> None:
    """A server's term is about the server's field, not ours: its own vectors, beside the
    bundled ones, put the rest of such a sentence near it."""
    assert bundled_index.semantic is not None
    vectors = TermVectors(bundled_index.semantic.encoder, tmp_path)
    local = compile_local(load_glossary(), bundled_index, TERMS, {}, vectors=vectors)
    vectors.embed([text for _, text in local.texts])
    result = with_vectors(local, vectors).index.search(query)
    assert result.entry is not None
    assert result.entry.id == term_id
