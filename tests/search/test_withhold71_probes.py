"""Probes for task withhold71 (issue #12, "never a confident wrong card"): a vague text that
several entries could answer gets no card, a plain description of one entry keeps its card.
withhold71_probes.tsv was written from entry titles and general knowledge, before reading the
tuning rows, the entries' text or the search code the task changes."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails the
# suite and is moved out of here. The two vague texts get the card a reader would likely call
# right (Hallucination, Guardrails): the probes asked too much of them, kept as written. Temperature
# is not offered among the first three: Sampling, Top-p and Seed lead.
STILL_FAILING: set[str] = {
    "the thing where it makes stuff up but sounds sure",
    "how do they stop it from saying bad stuff",
    "the number that controls how random the sampled words are",
}
PROBES = ProbeFile("withhold71_probes.tsv", STILL_FAILING)

test_a_vague_text_gets_no_card = PROBES.test("unsure", expect=no_card)
test_a_plain_description_keeps_its_card = PROBES.test("kept", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"unsure": 6, "kept": 9})


# Tuning rows (dev19, dev24, dev5): a kind read from words written apart (`more_specific`) that
# the words alone do not put first is offered, its entry first (`_scattered_kind_offered`, 2f802a66);
# one the words put first, or whose name is written whole, keeps its card. The rule failed the ship
# rule on held out (bench/withhold71_rows_changed.py: 14 wrong cards fewer, 8 right fewer) and was
# reverted: the rows it offered are strict xfails.
@pytest.mark.xfail(strict=True, reason="_scattered_kind_offered reverted")
@pytest.mark.parametrize(
    ("query", "offered"),
    [
        (
            "btw why is normal ram so much slower than the memory on the gpu",
            "video-random-access-memory",
        ),
        (
            "my gpu runs out of memory, should i lower how many samples go in at once?",
            "video-random-access-memory",
        ),
        (
            "how many tokens should i train a 1B model on for the best use of my budget?",
            "training-tokens",
        ),
    ],
)
def test_a_kind_read_from_scattered_words_is_offered(
    bundled_index: SearchIndex, query: str, offered: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is None, result
    assert result.suggestions[0].id == offered, result


@pytest.mark.parametrize(
    ("query", "card"),
    [
        ("which text encoder does sdxl use", "text-encoder"),
        ("best way to serve an llm to ~100 users at work?", "llm-serving"),
    ],
)
def test_a_kind_written_whole_or_put_first_by_its_words_keeps_its_card(
    bundled_index: SearchIndex, query: str, card: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None, result
    assert result.entry.id == card, result
