"""Probes for task object65 (issue #12): a general entry name that is only a verb's object or a
tool named in passing ("this lablup thing to book gpus", "when meta releases llama ...", "we serve
llama 3 with vllm ...") while the text asks about something else gets no card of its own; where the
same frame asks about the name ("which gpu should i get", "what is llama") its card stays.
object65_probes.tsv was written from entry titles and general knowledge, before reading the tuning
rows, the entries' text or bot/search."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex
from bot.search.query import spoken_object

from .probe_files import ProbeFile, not_the_written_card, the_asked_card

# Probes that fail on this branch and on main 7e1793a5: strict expected failures, so one that
# starts passing fails the suite and is moved out of here. "meta releases llama" has no speaker
# before its verb and "we load the checkpoint" a determiner between: both outside
# `spoken_object`'s frame. Backend.AI asked by what it does ("the lablup platform for booking
# gpus") is offered, not carded.
STILL_FAILING: set[str] = {
    "when meta releases llama weights, what license do people mean by open weights",
    "after we load the checkpoint the model repeats the same sentence over and over, which"
    " decoding setting stops that",
    "what is the lablup platform for booking gpus called",
}
PROBES = ProbeFile("object65_probes.tsv", STILL_FAILING)

test_a_general_name_in_passing_gets_no_card = PROBES.test("passing", expect=not_the_written_card)
test_a_general_name_asked_about_keeps_its_card = PROBES.test("asked", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"passing": 21, "asked": 14})


# Cases written after the code (not blind). The tuning rows the rule takes: the name, the object of
# the speaker's verb before a question and the meaning's fourth or lower, is offered behind the
# ranking's first (`SearchIndex._object_name_offered`); each was that name's card on main 7e1793a5.
@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("our uni lab uses this lablup thing to book gpus what is it exactly like slurm", "gpu"),
        (
            "we serve llama 3 with vllm on two a100s and every ticket starts with the same policy"
            " text how does it skip redoing that",
            "llama",
        ),
        (
            "we tried few shot prompting for our support bot and it's inconsistent when is it"
            " worth training on our tickets",
            "few-shot-learning",
        ),
    ],
)
def test_the_object_of_the_speakers_verb_is_offered(
    bundled_index: SearchIndex, query: str, name: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is None, result
    assert name in [s.id for s in result.suggestions], result


# The same frame where the meaning ranks the name in its first three: the card stays.
@pytest.mark.parametrize(
    ("query", "asked"),
    [
        (
            "i tried speculative decoding at home with a 1b draft and an 8b target why is the"
            " output exactly the same as without it",
            "speculative-decoding",
        ),
        (
            "> you need cuda 12.1 for that wheel  what even is that and why does the version matter",
            "cuda",
        ),
    ],
)
def test_a_name_the_meaning_ranks_high_keeps_its_card(
    bundled_index: SearchIndex, query: str, asked: str
) -> None:
    the_asked_card(bundled_index.search(query), asked, "")


@pytest.mark.parametrize(
    ("before", "after", "spoken"),
    [
        ("this lablup thing to book ", " what is it", True),
        ("we serve ", " 3 with vllm how does it skip that", True),
        ("i tried ", " at home why is the output the same", True),
        ("we serve ", " 3 with vllm", False),  # no question after: the statement is all
        ("how do we serve ", " what is it", False),  # the name inside the question
        ("we use the ", " what is it", False),  # a determiner between: not this frame
        ("meta releases ", " what is in it", False),  # no speaker before the verb
        ("we just ", " what is it", False),  # no verb
        ("", " what is it", False),
    ],
)
def test_the_speakers_object_is_read_around_the_name(before: str, after: str, spoken: bool) -> None:
    assert spoken_object(before, after) is spoken


# Hostile input: the frame is read in the tail before the name only (`COUNTED_TAIL`), the question
# words by a linear search (no timing asserted here).
@pytest.mark.parametrize(
    ("before", "after", "spoken"),
    [
        ("we " * 1300 + "serve ", " how" * 1000, True),
        ("x" * 4000 + " to book ", " what", True),
        ("we serve " * 450, " x" * 2000, False),
        ("what " * 800 + "we serve ", " how", False),
    ],
)
def test_only_the_words_around_the_name_are_read(before: str, after: str, spoken: bool) -> None:
    assert spoken_object(before, after) is spoken
