"""Probes for task when31: a description that says in what situation a thing happens ("when the
model makes up facts ...", "that thing when ...") is no question, while a real question opening
"when" ("when should i use lora", "when does the kv cache get cleared") stays one (issue #12).
when31_probes.tsv was written from entry ids and general knowledge, not from the entries' text
nor any slice's rows."""

from __future__ import annotations

from bot.search.query import is_question

from .probe_files import ProbeFile, the_asked_card, the_asked_card_or_first_offers

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here. Short descriptions (under `fusion.LONG_WORDS`), read as
# descriptions on main too once "you"/"that thing" opens them: the right entry is offered, no card
# (Knowledge Distillation, LLM-as-a-Judge, Automation Bias first; Few-Shot Learning second behind
# Zero-Shot; Benchmark Contamination third behind Decontamination and Private Test Set).
STILL_FAILING = {
    "when benchmark questions end up in the training data so the scores look better than they are",
    "when you train a small model to imitate the outputs of a much bigger one",
    "when you put a few solved examples in the prompt before the real task",
    "when you let one language model grade the answers of another one",
    "that thing when people trust the ai's answer so much that they stop checking it themselves",
}
PROBES = ProbeFile("when31_probes.tsv", STILL_FAILING)

test_a_situation_described_is_carded = PROBES.test("desc", expect=the_asked_card)
test_a_question_opening_when_finds_its_entry = PROBES.test(
    "asked", expect=the_asked_card_or_first_offers
)
test_the_probes_are_the_ones_written = PROBES.counted({"desc": 12, "asked": 6})


def test_a_situation_described_is_no_question() -> None:
    assert not is_question("when the model states something confidently that isn't true")
    assert not is_question("when you train a small model to copy a big one")
    assert not is_question("so when a model forgets what it learned before")
    assert not is_question("that thing when the model agrees with everything")


def test_a_question_opening_when_stays_one() -> None:
    assert is_question("when should i use lora")
    assert is_question("when does the kv cache get cleared")
    assert is_question("when is it worth quantizing")
    assert is_question("when to use early stopping")
    assert is_question("when was the transformer introduced")
    assert is_question("when would you pick beam search over sampling")
    assert is_question("when the model hallucinates?")  # a question mark asks
    assert is_question("when the loss goes nan, what should i check")  # a later clause asks


def test_a_when_text_that_asks_later_stays_a_question() -> None:
    assert is_question("when a lab releases the weights what files do i actually get")
    assert is_question("when you double the cake recipe do you double the baking time too")
    assert is_question("when a paper says 15t tokens, are repeated epochs counted")
    assert not is_question("when the assistant should refuse but answers anyway")


def test_a_two_word_when_clause_is_read() -> None:
    assert not is_question("when sampling")  # a clause of "when sampling, which setting ..."
