"""Probes for task wrong19: a one-word name in its everyday sense, the sentence as a whole not
read near that entry ("what is a good token gift for a coworker"), gets no card; the same words
in the field's sense keep it. wrong19_probes.tsv was written from the entry titles and general
knowledge before the rule, not from the entries nor the relevance rows."""

from __future__ import annotations

from bot.search.everyday import read_in_another_sense
from bot.search.fusion import OFF_DOMAIN_COSINE

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING = {
    "what does the gate agent do when a flight is overbooked",  # Gate card
    "what does temperature do when a language model picks the next word",  # no Temperature card
    "why does my training loss suddenly jump to nan",  # no Loss card
}
PROBES = ProbeFile("wrong19_probes.tsv", STILL_FAILING)

test_an_everyday_sense_gets_no_card = PROBES.test("everyday", expect=no_card)
test_the_field_sense_gets_its_card = PROBES.test("real", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"everyday": 12, "real": 8})


def _knows(word: str) -> bool:
    """The glossary's words, for these tests: a few the field uses."""
    return word in {"use", "seconds", "model", "code", "generation"}


def _sense(text: str, name: str, cosine: float, *, first: bool = False) -> bool:
    start = text.index(name)
    return read_in_another_sense(text, start, start + len(name), cosine, first, _knows)


def test_a_plain_word_far_from_its_entry_beside_an_everyday_word_is_another_sense() -> None:
    assert _sense("is sampling a song legal if i only use 2 seconds", "sampling", 0.19)


def test_the_sense_stays_the_fields_near_its_entry_or_first_or_with_only_the_fields_words() -> None:
    text = "is sampling a song legal if i only use 2 seconds"
    assert not _sense(text, "sampling", OFF_DOMAIN_COSINE)  # the meaning reads it near enough
    assert not _sense(text, "sampling", 0.19, first=True)  # no other entry is nearer
    # nothing of another field beside the name: "code generation" is the glossary's
    assert not _sense("what temperature should i use for code generation", "temperature", 0.33)


def test_only_a_one_word_common_name_has_another_sense() -> None:
    assert not _sense("is fine tuning a song legal", "fine tuning", 0.2)  # two words
    assert not _sense("is vllm a song thing", "vllm", 0.2)  # no English word
