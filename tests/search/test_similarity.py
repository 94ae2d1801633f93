"""Name similarity (bot/search/similarity.py) on queries written for this file from the entries'
titles, none from a relevance slice."""

from __future__ import annotations

import pytest

from bot.glossary.keys import compact, normalize
from bot.search import SearchIndex
from bot.search.ranking import MATCH_SCORE, SUGGEST_SCORE
from bot.search.similarity import name_similarity


def _similarity(text: str, name: str) -> float:
    text, name = normalize(text), normalize(name)
    return float(name_similarity(compact(text), text, [compact(name)], [name])[0])


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("hallucination on lsd", "hallucinations"),  # the "s" of "lsd" is no plural's
        ("transformer toys for kids", "transformers"),
        ("tokens at the arcade", "tokens"),
    ],
)
def test_a_name_and_other_words_is_no_typo_of_the_name(text: str, name: str) -> None:
    """One word of the text is the name; the others are no letters of it, wherever they fall."""
    assert _similarity(text, name) < SUGGEST_SCORE


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("visoin transformer", "vision transformer"),
        ("atention mechanism", "attention mechanism"),
        ("fine tuning", "finetuning"),  # a name written joined, typed in two words
        ("kv cahce", "kv cache"),
    ],
)
def test_a_name_of_several_words_mistyped_is_still_a_typo(text: str, name: str) -> None:
    assert _similarity(text, name) >= MATCH_SCORE


def test_no_typo_is_offered_for_a_name_among_other_words(bundled_index: SearchIndex) -> None:
    result = bundled_index.search("hallucination on lsd")
    assert all(s.strategy != "fuzzy" for s in result.suggestions)
    assert result.strategy != "fuzzy"
