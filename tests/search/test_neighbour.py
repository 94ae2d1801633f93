"""A broad name written, a narrower related entry asked about (issue #12): the card the name won
becomes an offer, the entry the meaning prefers first. Queries written for this file (none from
a relevance slice)."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex
from bot.search.fusion import NEIGHBOUR_GAP, narrower_first

CARD, NEIGHBOUR, OTHER = 0, 1, 2


def test_the_meanings_related_first_entry_well_ahead_is_offered_first() -> None:
    similar = [(NEIGHBOUR, 0.80), (OTHER, 0.70), (CARD, 0.80 - NEIGHBOUR_GAP)]
    assert narrower_first(CARD, CARD, similar, related=True) == NEIGHBOUR


@pytest.mark.parametrize(
    ("asked", "similar", "related"),
    [
        # the meaning's first only a little ahead: the name stands
        (CARD, [(NEIGHBOUR, 0.80), (CARD, 0.80 - NEIGHBOUR_GAP + 0.01)], True),
        # an unrelated entry ahead is no narrower kind of the card
        (CARD, [(NEIGHBOUR, 0.80), (CARD, 0.50)], False),
        # a card the meaning does not rank was asked about by its name alone
        (CARD, [(NEIGHBOUR, 0.80), (OTHER, 0.70)], True),
        # the card is not the name the question asks about
        (OTHER, [(NEIGHBOUR, 0.80), (CARD, 0.50)], True),
        (None, [(NEIGHBOUR, 0.80), (CARD, 0.50)], True),
        # the meaning agrees with the card
        (CARD, [(CARD, 0.80), (NEIGHBOUR, 0.50)], True),
        (CARD, [], True),
    ],
)
def test_the_card_stands(
    asked: int | None, similar: list[tuple[int, float]], related: bool
) -> None:
    assert narrower_first(CARD, asked, similar, related=related) is None


def test_a_broad_name_asked_about_a_narrower_entry_is_an_offer(
    bundled_index: SearchIndex,
) -> None:
    # Vision Transformer was the card: the pieces an image is cut into are Image Patch Tokens
    result = bundled_index.search("how does a vision transformer cut an image into pieces")
    assert result.entry is None
    assert [s.id for s in result.suggestions[:2]] == ["image-patch-token", "vision-transformer"]


@pytest.mark.parametrize(
    ("query", "card"),
    [
        ("what does an attention head actually compute", "attention-head"),
        ("what does a vision transformer do with a photo", "vision-transformer"),
        (
            "how does a transformer tell which word came first if attention has no sense of position",
            "positional-encoding",
        ),
        # a card the meaning does not rank at all stays the name's
        ("is 8-bit quantization much worse than 16-bit for a small model", "quantization"),
    ],
)
def test_a_question_about_the_named_entry_keeps_its_card(
    bundled_index: SearchIndex, query: str, card: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None
    assert result.entry.id == card
