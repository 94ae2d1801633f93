"""Probes for task agree59 (issue #12): a description or question that writes none of its entry's
names, where the words and the meaning agree on that entry, gets its card; a text describing one
of two near neighbours (Adam / RMSprop, RLHF / RLAIF, cross- / dual encoder, top-p / top-k) does
not get the other's card, and one fitting both about equally gets none; a text from cloud, web,
crypto or general programming that writes ML-ish words gets none. agree59_probes.tsv was written
from entry titles and general knowledge, before reading the rows, the entries' text or the search
code. Then the rule the task measured (`fusion.words_agree`): the words' first, a description
under the agreement floor, that the meaning puts first too by a clear lead, is the card."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex
from bot.search.fusion import (
    AGREEMENT_FLOOR,
    WORDS_AGREE_COSINE,
    WORDS_AGREE_FIELD,
    WORDS_AGREE_LEAD,
    words_agree,
)
from bot.search.ranking import Candidate

from .probe_files import ProbeFile, no_card, not_the_written_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails the
# suite and is moved out of here. All five answer as on main (`words_agree` moves none of the 50):
# the description stage puts Lethal Trifecta first at 89.9 for the web page's hidden instructions
# (Prompt Injection its second offer: the words' first is not the meaning's); the "between" texts
# get a card by one stage alone (Tool Calling and Quantization by their descriptions, Encoder-Free
# Multimodal Model and SRAM by the meaning), which no agreement rule reads.
STILL_FAILING: set[str] = {
    "hidden instructions in a web page that trick the assistant into leaking your private data",
    "letting the chatbot ask your code to run something and hand back the result",
    "shrinking a model so it takes less memory",
    "a model that reads pictures and text together",
    "the fast memory on the chip versus the big memory next to it",
}
PROBES = ProbeFile("agree59_probes.tsv", STILL_FAILING)

test_a_described_entry_gets_its_card = PROBES.test("described", expect=the_asked_card)
test_a_near_neighbour_gets_no_card = PROBES.test("near", expect=not_the_written_card)
test_a_text_between_two_neighbours_gets_no_card = PROBES.test("between", expect=no_card)
test_an_off_topic_text_gets_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted(
    {"described": 20, "near": 10, "between": 5, "none": 15}
)


def _described(entry: int, score: float = 70.0) -> tuple[int, Candidate]:
    return entry, Candidate(score, "description")


def test_the_words_and_the_meaning_agreeing_on_a_clear_first() -> None:
    # a hair over the lead: 0.5 - 0.4 is a hair under 0.1 in floating point
    similar = [(1, WORDS_AGREE_COSINE), (2, WORDS_AGREE_COSINE - WORDS_AGREE_LEAD - 1e-9)]
    assert words_agree(similar, _described(1), WORDS_AGREE_FIELD)


@pytest.mark.parametrize(
    ("similar", "words_first", "field"),
    [
        ([(1, 0.7), (2, 0.5)], _described(2), 0.3),  # the words put another entry first
        ([(1, 0.7), (2, 0.5)], None, 0.3),  # the words found nothing
        # a name, not a description
        ([(1, 0.7), (2, 0.5)], (1, Candidate(80.0, "match-term")), 0.3),
        # a description this strong already agrees (`AGREEMENT_BONUS`)
        ([(1, 0.7), (2, 0.5)], _described(1, AGREEMENT_FLOOR), 0.3),
        ([(1, WORDS_AGREE_COSINE - 0.01), (2, 0.3)], _described(1), 0.3),  # under the cosine
        ([(1, 0.7), (2, 0.7 - WORDS_AGREE_LEAD + 0.01)], _described(1), 0.3),  # under the lead
        ([(1, 0.7)], _described(1), 0.3),  # no second to lead
        ([(1, 0.7), (2, 0.5)], _described(1), WORDS_AGREE_FIELD - 0.01),  # leaning away
    ],
)
def test_no_agreement(
    similar: list[tuple[int, float]], words_first: tuple[int, Candidate] | None, field: float
) -> None:
    assert not words_agree(similar, words_first, field)


# Tuning rows (dev9, dev16, dev20) that were offered first without a card: the description stage's
# first under the agreement floor and the meaning's first at cosine 0.55-0.66, 0.16-0.23 ahead,
# the text at 0.22-0.28 to the field. `words_agree` cards them (shipped by the coordinator's
# weighing: bench/results/semantic.md "coordinator, 2026-12-06: agree59 shipped").
@pytest.mark.parametrize(
    ("query", "asked"),
    [
        (
            "our retriever gets the right doc in the top 30 but rarely in the top 3. what extra"
            " stage fixes the order?",
            "reranking",
        ),
        (
            "how can mixtral have 47b params but run like a 13b model? confused af",
            "mixture-of-experts",
        ),
        (
            "accountant: is it right that each layer just adds its output onto a running total"
            " that passes through the whole network?",
            "residual-stream",
        ),
    ],
)
def test_the_words_and_the_meaning_agreeing_make_the_card(
    bundled_index: SearchIndex, query: str, asked: str
) -> None:
    the_asked_card(bundled_index.search(query), asked, "")
