"""Probes for task neighbour34: a question that names no entry and asks for one that has a close
neighbour (Top-p beside Top-k, ROCm beside CUDA, AdamW beside Adam ...); the meaning's first may
be the neighbour, and a card for the neighbour is the worst answer (issue #12).
neighbour34_probes.tsv was written from entry titles and general knowledge, not from the entries'
text nor any slice's rows."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.search import SearchIndex
from bot.search.fusion import CARD_LEAD, NEIGHBOUR_COSINE, neighbour_described

from .probe_files import ProbeFile, the_asked_card_or_first_offers

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
# Main f6acffa: "python" written in the CPU question is carded (a name written, not this task's
# cause); the causal-mask and RMSprop questions card Training Tokens and Step on the meaning.
STILL_FAILING = {
    "which processor runs the ordinary if-statements and loops of my python script?",
    "what stops a token from looking at the words that come after it during training?",
    (
        "which optimizer divides each step by a running average of recent squared gradients, "
        "without momentum?"
    ),
}
PROBES = ProbeFile("neighbour34_probes.tsv", STILL_FAILING)

test_a_neighbour_is_no_card = PROBES.test("near", expect=the_asked_card_or_first_offers)
test_the_probes_are_the_ones_written = PROBES.counted({"near": 26})


# The rule (`fusion.neighbour_described`, `SearchIndex._neighbour_offered`). Queries below were
# written for this file after the tuning misses were read (paraphrases of their kind, none
# copied from a slice).
FIRST, SECOND, THIRD = 0, 1, 2


def near(one: int, other: int) -> float:
    return NEIGHBOUR_COSINE


def far(one: int, other: int) -> float:
    return NEIGHBOUR_COSINE - 0.01


def test_near_neighbours_the_words_prefer_the_other_way_offer_the_second_first() -> None:
    similar = [(FIRST, 0.77), (SECOND, 0.73), (THIRD, 0.6)]
    assert neighbour_described(similar, {SECOND: 52.3, FIRST: 49.6}, near) == SECOND
    # the meaning's first not described at all
    assert neighbour_described(similar, {SECOND: 75.0}, near) == SECOND


@pytest.mark.parametrize(
    ("similar", "described", "closeness"),
    [
        # entries further apart than near neighbours: the meaning tells them apart
        ([(FIRST, 0.77), (SECOND, 0.73)], {SECOND: 52.3, FIRST: 49.6}, far),
        # the meaning's lead a card's own (`CARD_LEAD`)
        ([(FIRST, 0.90), (SECOND, 0.90 - CARD_LEAD)], {SECOND: 90.0}, near),
        # the words agree with the meaning, or prefer a third entry, or say nothing
        ([(FIRST, 0.77), (SECOND, 0.73)], {FIRST: 52.3, SECOND: 49.6}, near),
        ([(FIRST, 0.77), (SECOND, 0.73)], {THIRD: 60.0, SECOND: 52.3}, near),
        ([(FIRST, 0.77), (SECOND, 0.73)], {}, near),
        ([(FIRST, 0.77)], {SECOND: 60.0}, near),
    ],
)
def test_the_meaning_s_card_stands(
    similar: list[tuple[int, float]],
    described: dict[int, float],
    closeness: Callable[[int, int], float],
) -> None:
    assert neighbour_described(similar, described, closeness) is None


def test_entries_of_one_kind_are_near_neighbours(bundled_index: SearchIndex) -> None:
    semantic = bundled_index.semantic
    assert semantic is not None
    at = bundled_index.positions
    assert semantic.closeness(at["top-k"], at["top-p"]) >= NEIGHBOUR_COSINE
    assert semantic.closeness(at["gpu"], at["tensor-processing-unit"]) >= NEIGHBOUR_COSINE
    assert semantic.closeness(at["gpu"], at["seed"]) < NEIGHBOUR_COSINE
    assert semantic.closeness(at["top-k"], at["top-k"]) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("query", "offered"),
    [
        # GPU was the card: the words describe Google's own chips
        (
            "our chess club heard google builds its own chips for ai rather than buying nvidia "
            "ones. what are those?",
            ["tensor-processing-unit", "gpu"],
        ),
        # Validation Loss was the card
        (
            "the model does great on its training examples but fails on anything it has not seen",
            ["overfitting", "validation-loss"],
        ),
    ],
)
def test_a_near_neighbour_the_words_prefer_is_offered_first(
    bundled_index: SearchIndex, query: str, offered: list[str]
) -> None:
    result = bundled_index.search(query)
    assert result.entry is None, result
    assert [s.id for s in result.suggestions[:2]] == offered
