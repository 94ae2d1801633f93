"""Probes for task everyday62 (issue #12, off-topic cards): an entry's plain-word name asked in its
everyday sense (a teacher's rubric, a game's save checkpoint, a factory line's throughput, the
brain's neurons, a retirement Monte Carlo, graphics cards in SLI) gets no card; the same words
asked in the ML sense keep the card.
everyday62_probes.tsv was written from entry titles and general knowledge, before reading the
everyday code, the entries' text or any tuning row. The rule (`everyday.everyday_setting`, called
from `everyday_sense`): a plain name, alone, in a sentence judged, whose rest read alone is nearer
an everyday setting (`EVERYDAY_SETTINGS`) than to every entry, is used in that setting's sense:
an offer, no card (bench/results/semantic.md "everyday62")."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex, SearchResult

from .probe_files import ProbeFile, no_card, the_asked_card


def one_of_the_asked_cards(result: SearchResult, asked: str, written: str) -> None:
    """The card of the entry asked about ("a|b": either)."""
    assert result.entry is not None, result
    assert result.entry.id in asked.split("|"), result


# Probes that fail on this branch: strict expected failures, so one that starts passing fails the
# suite and is moved out of here.
STILL_FAILING = {
    # not judged at all: the sentence is nearer Rubric than `WORDS_NEAR_COSINE` (0.65), and
    # "write" is the glossary's word
    "how do i write a grading rubric for an essay",
    # judged, but the rest read alone is nearer an entry than any setting ("how fast do fire in
    # the human brain": 0.46 to an entry, 0.33 to the body's setting; "what clues help children
    # read new words": 0.47 against 0.31)
    "how fast do neurons fire in the human brain",
    "what context clues help children read new words",
    # the ML sense, but another card: Training's (the name written first) and none at all
    "how often should i save a training checkpoint",
    "what temperature should i use for creative writing with gpt",
}
PROBES = ProbeFile("everyday62_probes.tsv", STILL_FAILING)

test_a_name_asked_in_its_everyday_sense_is_no_card = PROBES.test("everyday", expect=no_card)
test_the_name_asked_in_its_ml_sense_is_its_card = PROBES.test("real", expect=one_of_the_asked_cards)
test_the_probes_are_the_ones_written = PROBES.counted({"everyday": 42, "real": 24})


# Written after the tuning rows and the code were read: the tuning slices' off-topic cards the
# rule stops (all four carded on main 1571f2ec, the rule off), and ML questions set in an everyday
# scene, whose rests lie nearer an entry than a setting, that keep their card.
@pytest.mark.parametrize(
    "query",
    [
        "what does throughput mean on a factory assembly line?",  # dev10: factories
        "what does embedding a font in a pdf actually do?",  # dev17: office documents
        "how to write a rubric for my 5th grade essay assignment",  # dev4: school
        "my mouse has input latency in games even on a wired connection",  # dev12: pc hardware
    ],
)
def test_a_rest_set_in_an_everyday_setting_is_no_card(
    bundled_index: SearchIndex, query: str
) -> None:
    no_card(bundled_index.search(query), "-", "-")


@pytest.mark.parametrize(
    ("query", "asked"),
    [
        ("our school wants an llm to grade essays against a rubric, how does that work", "rubric"),
        ("how much latency does an ai voice assistant add to a video game", "latency"),
        ("the factory wants to save a checkpoint of the defect model every hour", "checkpoint"),
        ("i set a seed but my outputs are still not reproducible, why", "seed"),
    ],
)
def test_an_ml_question_in_an_everyday_scene_keeps_its_card(
    bundled_index: SearchIndex, query: str, asked: str
) -> None:
    the_asked_card(bundled_index.search(query), asked, "-")
