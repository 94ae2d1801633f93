"""Probes for task bar56 (issue #12): a chat question that describes an entry without writing its
name, bare, behind a chat filler ("ok so", "wait", "quick q") or after a statement of what the
asker is doing: its entry's card. A description from cloud, web or crypto work that sits near a
field entry: no card. bar56_probes.tsv was written from entry titles and general knowledge,
before reading the entries' text, any slice's rows or the search code. Then the rule the task
measured (`fusion.unnamed_lead`): a text writing no entry's name gets the meaning's clear leader
as its card where the lexical stages found that entry too."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex
from bot.search.fusion import UNNAMED_COSINE, UNNAMED_LEAD, unnamed_lead
from bot.search.ranking import Pool

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails the
# suite and is moved out of here. Each gets its entry offered first or second at 82-83, under the
# card bar: the meaning's cosine is 0.56-0.65, under `UNNAMED_COSINE`, or its lead under
# `UNNAMED_LEAD` (bench/results/semantic.md "bar56"). The 70b model's 4-bit base with adapters
# (QLoRA) left the set with calib75's refit: an offer with its entry first, the model's card.
STILL_FAILING: set[str] = {
    "hmm what's the setup where a big model's outputs are used to train a smaller one",
    "we let a model grade our chatbot's answers. what's that approach called",
    "i want people to be able to ask the model to ignore the system prompt and it shouldn't."
    " what's the idea that ranks system over user messages",
}
PROBES = ProbeFile("bar56_probes.tsv", STILL_FAILING)

test_a_described_entry_gets_its_card = PROBES.test("plain", expect=the_asked_card)
test_an_opened_description_gets_its_card = PROBES.test("opened", expect=the_asked_card)
test_a_stated_then_described_entry_gets_its_card = PROBES.test("stated", expect=the_asked_card)
test_a_near_off_topic_description_gets_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted(
    {"plain": 10, "opened": 10, "stated": 10, "none": 8}
)


def _pool(*entries: int) -> Pool:
    pool = Pool()
    for entry in entries:
        pool.add(entry, 70.0, "description")
    return pool


def test_a_clear_leader_the_words_found_leads() -> None:
    similar = [(1, UNNAMED_COSINE), (2, UNNAMED_COSINE - UNNAMED_LEAD)]
    assert unnamed_lead(similar, _pool(1))


@pytest.mark.parametrize(
    ("similar", "found"),
    [
        # the words did not find it: the meaning alone was wrong one time in four there
        ([(1, 0.7), (2, 0.5)], ()),
        ([(1, UNNAMED_COSINE - 0.01), (2, 0.4)], (1,)),  # under the cosine
        ([(1, 0.7), (2, 0.7 - UNNAMED_LEAD + 0.01)], (1,)),  # under the lead
        ([(1, 0.7)], (1,)),  # no second to lead
    ],
)
def test_no_clear_leader(similar: list[tuple[int, float]], found: tuple[int, ...]) -> None:
    assert not unnamed_lead(similar, _pool(*found))


# Tuning rows (dev12, dev17, dev19) that main offered their entry first at 82.9 without a card.
@pytest.mark.parametrize(
    ("query", "asked"),
    [
        (
            "a number telling how puzzled the model is when reading real sentences; the smaller"
            " the better",
            "perplexity",
        ),
        (
            "bought 64gb of ddr5 for my pc, why do they say system ram gets 'refreshed' all the"
            " time, what kind of memory is it?",
            "dynamic-random-access-memory",
        ),
        (
            "sorry one more q, same prompt twice and i got two different replies, is something"
            " broken",
            "sampling",
        ),
    ],
)
def test_an_unnamed_clear_leader_is_the_card(
    bundled_index: SearchIndex, query: str, asked: str
) -> None:
    the_asked_card(bundled_index.search(query), asked, "")


def test_an_everyday_text_the_meaning_reads_as_the_field_gets_no_card(
    bundled_index: SearchIndex,
) -> None:
    # everyday2's row: the meaning puts Over-Refusal first at cosine 0.65, 0.3 ahead
    result = bundled_index.search(
        "did anyone write down the homework for chem, i think its chapter 7 questions 1-12"
    )
    assert result.entry is None, result
