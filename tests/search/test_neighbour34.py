"""Probes for task neighbour34: a question that names no entry and asks for one that has a close
neighbour (Top-p beside Top-k, ROCm beside CUDA, AdamW beside Adam ...); the meaning's first may
be the neighbour, and a card for the neighbour is the worst answer (issue #12).
neighbour34_probes.tsv was written from entry titles and general knowledge, not from the entries'
text nor any slice's rows."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex

from .probe_files import ProbeFile, the_asked_card_or_first_offers

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
# Main f6acffa: "python" written in the CPU question is carded (a name written, not this task's
# cause); the causal-mask question cards Training Tokens on the meaning. The RMSprop question
# (Step's card on main) passes with wrong49's `_asked_name_offered`.
STILL_FAILING = {
    "which processor runs the ordinary if-statements and loops of my python script?",
    "what stops a token from looking at the words that come after it during training?",
}
PROBES = ProbeFile("neighbour34_probes.tsv", STILL_FAILING)

test_a_neighbour_is_no_card = PROBES.test("near", expect=the_asked_card_or_first_offers)
test_the_probes_are_the_ones_written = PROBES.counted({"near": 26})


# A meaning's card for the near neighbour of what the words describe (queries written for this
# file after the tuning misses were read, paraphrases of their kind, none copied from a slice).
# neighbour34's rule (near neighbours by entry vectors, the words ranking the other way: an
# offer) passed these but cost held-out right cards; it was reverted (bench/results/semantic.md
# "neighbour34"), so they stay strict expected failures.
@pytest.mark.xfail(strict=True, reason="reverted: the meaning cards the neighbour")
@pytest.mark.parametrize(
    ("query", "offered"),
    [
        # Validation Loss is the card
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


# Passes since asked40 (GPU's phrasing "why does everyone want nvidia chips for ai", true of
# any AI chip, rewritten): no GPU card, the chips the words describe first; since agree59's
# `words_agree` (the words and the meaning agreeing on TPU) their card.
def test_google_s_own_chips_are_carded_not_the_gpu(bundled_index: SearchIndex) -> None:
    result = bundled_index.search(
        "our chess club heard google builds its own chips for ai rather than buying nvidia "
        "ones. what are those?"
    )
    assert result.entry is not None, result
    assert result.entry.id == "tensor-processing-unit", result
