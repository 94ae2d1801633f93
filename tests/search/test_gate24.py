"""The description stage's gate for everyday sentences (task gate24, issue #12): a sentence that
says no word of the field ("my uncle only remembers the last few things you told him") shares
plain words with an entry's text, and the description stage carded it at 89-100; its card
becomes an offer unless the meaning finds the sentence near an entry."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex


@pytest.mark.parametrize(
    ("query", "offered"),
    [
        # each got a description card on main (d0bee42)
        (
            "my uncle only remembers the last few things you told him in a conversation",
            "memory-systems",
        ),
        ("is a monte carlo simulation the right way to plan my pension", "monte-carlo-tree-search"),
        (
            "would a monte carlo simulation help plan our retirement savings",
            "monte-carlo-tree-search",
        ),
    ],
)
def test_an_everyday_sentence_gets_offers_not_a_card(
    bundled_index: SearchIndex, query: str, offered: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is None, result
    assert result.suggestions, result
    assert result.suggestions[0].id == offered, result


@pytest.mark.parametrize(
    ("query", "entry"),
    [
        # no word of the field either, but the meaning is near its entry (cosine 0.52-0.58)
        ("rotating q and k by angles that depend on where they sit", "rotary-position-embedding"),
        ("chopping strings into vocab ids", "tokenization"),
        # the field's words: "model", "bot"
        ("what are the ways to shrink a model enough to run on a phone", "model-compression"),
        ("making the bot read aloud", "text-to-speech"),
    ],
)
def test_a_description_keeps_its_card(bundled_index: SearchIndex, query: str, entry: str) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None, result
    assert result.entry.id == entry, result


@pytest.mark.parametrize(
    ("word", "field"),
    [
        ("model", True),  # used by most entries
        ("prompt", True),
        ("docker", True),  # a one-word name
        ("grandpa", False),
        ("remember", False),
        ("conversation", False),
    ],
)
def test_a_field_word_is_a_name_or_a_word_many_entries_use(
    bundled_index: SearchIndex, word: str, field: bool
) -> None:
    assert bundled_index.field_word(word) is field
