"""The description stage's gate for everyday sentences (task gate24, issue #12): a sentence that
says no word of the field ("my uncle only remembers the last few things you told him") shares
plain words with an entry's text, and the description stage carded it at 89-100; its card
becomes an offer unless the meaning finds the sentence near an entry."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.glossary import load_glossary
from bot.search import SearchIndex
from bot.search.local import compile_local, with_vectors
from bot.search.semantic.term_vectors import TermVectors

from .server_term_calib import SERVERS


@pytest.mark.parametrize(
    ("query", "offered"),
    [
        # each got a description card on main (d0bee42)
        (
            "my uncle only remembers the last few things you told him in a conversation",
            "memory-systems",
        ),
        (
            "my grandma only remembers the last few things you said in a conversation",
            "memory-systems",
        ),
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
        ("bot", True),  # in 14 entries
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


@pytest.mark.parametrize(
    ("description", "term"),
    [
        # server_term_calib.py's; each an offer with the gate before it spared server terms
        ("the currency for bidding on drops after showing up", "dkp"),
        ("rest period when we skip routine checks", "quiet-hour"),
        ("escalating straight to engineers skipping second line", "tier-jump"),
    ],
)
def test_a_server_term_described_in_plain_words_keeps_its_card(
    bundled_index: SearchIndex, tmp_path: Path, description: str, term: str
) -> None:
    """A server's own coinage is described in its server's everyday words, and the meaning
    scores such descriptions lower (`SearchIndex._is_server_term`): the gate is the bundled
    field's."""
    assert bundled_index.semantic is not None
    server = next(s for s in SERVERS if any(t.id == term for t in s.terms))
    vectors = TermVectors(bundled_index.semantic.encoder, tmp_path)
    local = compile_local(load_glossary(), bundled_index, server.terms, {}, vectors=vectors)
    vectors.embed([text for _, text in local.texts])
    result = with_vectors(local, vectors).index.search(description)
    assert result.entry is not None, result
    assert result.entry.id == term, result
