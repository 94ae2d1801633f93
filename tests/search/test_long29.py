"""Probes for task long29: long descriptions (40 words and more) of entries with a near
neighbour, as people type them into /define without the entry's name, and everyday stories of
that length. long29_probes.tsv was written from the entry ids and general knowledge, before
reading the entry text these probes target or any relevance row of theirs; it was not edited
after it was first run. Then tests of the rule long29 measured: a long description's meaning
and its description stage agreeing on the first (`fusion.long_lead`, `DESCRIBED_LEAD`)."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex
from bot.search.fusion import LONG_COSINE, LONG_LEAD, long_lead

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING = {
    # Sampling first (0.57), Top-p second
    "when picking the next word we sort the candidates by probability and keep only the smallest "
    "group whose chances add up to ninety percent, throw the rest away, renormalise what is left "
    "and draw one of them at random, so the pool grows and shrinks with how sure the model is",
    # Optimizer, SGD, RMSprop first; AdamW not in the first five
    "a variant of the popular adaptive optimizer where the shrinking of the weights toward zero "
    "is applied directly to the weights at each step instead of being mixed into the gradient, "
    "which makes the regularisation behave the way people expected and became the default for "
    "training transformers",
    # Multi-Head Attention first (0.71); Prefill the first offer
    "before the model writes its first word it runs the whole prompt through every layer in one "
    "big parallel pass, filling the attention memory for all those tokens at once, and that part "
    "is limited by raw compute rather than by memory bandwidth",
    # ("the model does great on the examples it was trained on ...": carded since asked40,
    # Validation Loss's phrasing of the symptom rewritten)
}
PROBES = ProbeFile("long29_probes.tsv", STILL_FAILING)

test_a_long_description_gets_its_card = PROBES.test("long", expect=the_asked_card)
test_an_everyday_story_gets_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"long": 16, "none": 2})


# Long descriptions where the description stage and the meaning put the same entry first, the
# meaning's lead under `LONG_LEAD` (`fusion.DESCRIBED_LEAD`). Written in my words after reading
# the code and the tuning rows this rule was measured on, so not blind probes: they pin the rule.
AGREED = [
    (
        "we keep a part of the examples locked away from the very beginning and never look at it"
        " or train on it, so that at the very end we can check honestly how the finished model"
        " does on data it has truly never seen before",
        "held-out-data",
    ),
    (
        "a piece of software that writes, edits and runs code inside your project on its own,"
        " reading the files, planning a change across several of them, running the test suite"
        " and fixing what fails before it asks you to review the result",
        "ai-coding-agents",
    ),
]


@pytest.mark.parametrize(("query", "asked"), AGREED)
def test_the_words_and_the_meaning_agreeing_make_a_long_description_card(
    bundled_index: SearchIndex, query: str, asked: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None, result
    assert result.entry.id == asked


FIRST, SECOND = 3, 7
CLOSE = [(FIRST, LONG_COSINE + 0.05), (SECOND, LONG_COSINE + 0.04)]


def test_the_description_stage_agreeing_makes_a_weak_lead_a_card() -> None:
    assert not long_lead(CLOSE)
    assert long_lead(CLOSE, described_first=FIRST)


def test_the_description_stage_putting_another_first_changes_nothing() -> None:
    assert not long_lead(CLOSE, described_first=SECOND)


def test_agreement_needs_the_long_cosine() -> None:
    low = [(FIRST, LONG_COSINE - 0.01), (SECOND, LONG_COSINE - 0.02)]
    assert not long_lead(low, described_first=FIRST)


def test_a_clear_lead_needs_no_agreement() -> None:
    assert long_lead([(FIRST, LONG_COSINE), (SECOND, LONG_COSINE - LONG_LEAD - 0.01)])
