"""Eighth round of question rules. Queries written for this file before each rule was kept
(none from a relevance slice)."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex

# -- a name that starts a longer name, the rest mistyped --------------------------------------


@pytest.mark.parametrize(
    ("query", "card"),
    [
        # "context" is a name, "context windw" one typo from Context Windows (Llama before)
        ("how big is the context windw of llama 3", "context-windows"),
        # the subject starts with "transformer": Transformers before the rule
        ("how is a transformer blokc laid out", "transformer-block"),
        ("why does attention heda pruning work", "attention-head"),
    ],
)
def test_a_name_starting_a_longer_name_mistyped_is_read_as_the_longer_name(
    bundled_index: SearchIndex, query: str, card: str
) -> None:
    assert bundled_index.search(query).entry_id == card


@pytest.mark.parametrize(
    ("query", "card"),
    [
        # a name and a plain word after it: the name, no typo of a longer one
        ("what is gradient descent in simple words", "gradient-descent"),
        ("what does gradient clippng actually do", "gradient-clipping"),
    ],
)
def test_a_name_and_a_plain_word_after_it_keep_their_card(
    bundled_index: SearchIndex, query: str, card: str
) -> None:
    assert bundled_index.search(query).entry_id == card


def test_a_name_and_a_plain_word_after_it_in_an_everyday_sense_offer_the_name(
    bundled_index: SearchIndex,
) -> None:
    """An attention span after lunch is no machine learning (bot/search/everyday.py): the name,
    no typo of a longer one, is offered first, without a card."""
    result = bundled_index.search("why does my attention span drop after lunch")
    assert result.entry is None
    assert result.best_id == "attention"


def test_a_name_alone_is_never_a_typo_of_a_longer_one(bundled_index: SearchIndex) -> None:
    assert bundled_index.questions.mistyped_words("the context of it") == []
    assert [w for _, _, w in bundled_index.questions.mistyped_words("a context windw here")] == [
        "context windw"
    ]


# -- "plain X", "vanilla X": a word for the thing without extras ------------------------------


@pytest.mark.parametrize(
    ("query", "card"),
    [
        ("is simple lora enough for a 7b model", "lora-qlora"),  # was no card
        ("is basic rag good enough for my company docs", "rag"),  # the meaning agreed before
    ],
)
def test_a_subject_said_plain_is_the_name_after_the_word(
    bundled_index: SearchIndex, query: str, card: str
) -> None:
    assert bundled_index.search(query).entry_id == card


def test_a_subject_said_plain_is_no_longer_a_card_for_its_broader_entry(
    bundled_index: SearchIndex,
) -> None:
    # an Optimizer card before the rule; now SGD is asked about and the meaning disagrees
    result = bundled_index.search("why is vanilla sgd worse than adam")
    assert result.entry is None
    assert "sgd" in [s.id for s in result.suggestions[:2]]
