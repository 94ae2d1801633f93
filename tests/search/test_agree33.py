"""Probes for task agree33: short everyday sentences (games, town news, cooking, sport, family)
that share a word with an entry name and get no card, and short descriptions (8-19 words) of
entries, several in everyday words, that get their card. agree33_probes.tsv was written from the
entry titles and general knowledge, before reading the entry text these probes target, any
relevance row of theirs or the code of the rule; it was not edited after it was first run."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING = {
    # the description stage's card (90.2: "save", "file", "update" are the field's words, so
    # the plain-description gate keeps it); the meaning is far from every entry (Checkpoint
    # 0.437) and the sentence names no entry, so the everyday check has no name to judge
    "the game crashed after the update and my whole save file got corrupted",
    # the meaning puts Sampling first (0.785), Seed second (0.764); Temperature not in its
    # first three
    "a number that decides how random the choice of the next word is",
    # the meaning puts Decode first (0.865, Prefill 0.770): "the first new token is generated"
    # reads as generating
    "processing all the prompt tokens at once before the first new token is generated",
}
PROBES = ProbeFile("agree33_probes.tsv", STILL_FAILING)

test_an_everyday_sentence_gets_no_card = PROBES.test("none", expect=no_card)
test_a_short_description_gets_its_card = PROBES.test("short", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"none": 16, "short": 12})


# Written after the rule and the tuning rows were read: rows of the tuning slices that
# agree33's short agreement carded (dev9, dev10, dev12: no card on main; offered), strict
# expected failures since it was reverted by the held-out reading (bench/results/semantic.md
# "agree33"), and the two everyday3 sentences that agree32's rule without the everyday guard
# carded (Checkpoint, Small Modular Reactor) and a three-word name: no card, as on main.
# The first is carded since agree59's `words_agree` (the meaning's first agreeing, 0.1 ahead).
_REVERTED = pytest.mark.xfail(strict=True, reason="agree33's short agreement, reverted")


@pytest.mark.parametrize(
    ("query", "asked"),
    [
        ("reasoning out loud before answering", "chain-of-thought"),
        ("model hands back arguments for my code", "function-calling"),  # since pairs61
        pytest.param(
            "capping how hard a single learning step can push so one bad batch doesn't wreck "
            "everything",
            "gradient-clipping",
            marks=_REVERTED,
        ),
    ],
)
def test_the_words_and_the_meaning_agree_on_a_short_description(
    bundled_index: SearchIndex, query: str, asked: str
) -> None:
    the_asked_card(bundled_index.search(query), asked, "-")


@pytest.mark.parametrize(
    "query",
    [
        "i died right before the last save point and lost an hour of progress",
        "the town wants to build a small nuclear plant by the river, is that safe",
        "convolutional neural network",  # three words: a name the glossary lacks (U-Net)
    ],
)
def test_an_everyday_scene_gets_no_agreement_card(bundled_index: SearchIndex, query: str) -> None:
    no_card(bundled_index.search(query), "-", "-")
