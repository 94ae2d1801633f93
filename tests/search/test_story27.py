"""Probes for task story27: a long question tells a story that names things in passing, then asks
what the thing it describes is called (issue #12). The names written in the story are its setting:
none of them is the card, the meaning of what the story describes is offered instead. A question
with no story before it still asks about the name it writes. story27_probes.tsv was written from
entry titles and general knowledge, not from the entries' text nor any slice's rows."""

from __future__ import annotations

from bot.search.query import asks_name_after_story

from .probe_files import ProbeFile, not_the_written_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING: set[str] = set()
PROBES = ProbeFile("story27_probes.tsv", STILL_FAILING)

test_a_name_written_in_the_story_is_no_card = PROBES.test("story", expect=not_the_written_card)
test_a_question_without_a_story_cards_its_name = PROBES.test("short", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"story": 8, "short": 3})


def test_a_name_is_asked_for_only_after_a_story() -> None:
    story = "we keep the weights of every thousandth step on disk to resume after a crash"
    assert asks_name_after_story(f"{story} what is that called")
    assert asks_name_after_story(f"{story} is there a term for those files")
    assert asks_name_after_story(f"{story} what's the standard name and how often should we")
    assert not asks_name_after_story("what is that called")
    assert not asks_name_after_story("what's the name of the python library for tensors")
    assert not asks_name_after_story(f"{story} how often should we do it")
