"""Probes for task ctx20: questions in a Discord server's voice, a context sentence (a setup, a
pasted flag or log line) before the question. ctx20_probes.tsv was written from the entry titles
and general knowledge before reading the search code, the entries it targets or dev8's rows."""

from __future__ import annotations

from bot.search.index import _question_names_first
from bot.search.terms import Found

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING = {
    # a Temperature card: "seed" is a plain word, no name for the question to write
    "set temperature=0 and still got different outputs. what does the seed do?",
    # a Fine-Tuning card: the question ("why") says nothing of its own, the context's name leads
    "we fine-tuned on our support tickets. now it answers those perfectly but fails on anything"
    " new, why?",
    # offered first, the meaning (cosine 0.49) under the card bar
    "our support bot made up a citation to a paper that doesn't exist. what is that called?",
}
PROBES = ProbeFile("ctx20_probes.tsv", STILL_FAILING)

test_a_question_after_context_gets_the_card_it_names = PROBES.test("card", expect=the_asked_card)
test_a_question_after_a_pasted_line_gets_its_card = PROBES.test("flag", expect=the_asked_card)
test_a_question_describing_its_thing_gets_its_card = PROBES.test("describes", expect=the_asked_card)
test_everyday_context_and_question_get_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted(
    {"card": 6, "flag": 5, "describes": 5, "none": 5}
)


# Names found in the unit tests' texts: (entry, word) -> each place the word is written.
NAMES = {"docker": 1, "rocm": 2, "flash attention": 3, "tree of thoughts": 4, "cot": 5}


def _names_in(text: str) -> tuple[Found, ...]:
    found = [
        Found(entry, at, at + len(name))
        for name, entry in NAMES.items()
        for at in range(len(text))
        if text.startswith(name, at)
    ]
    return tuple(sorted(found, key=lambda f: f.start))


def test_the_name_a_question_writes_after_context_comes_first() -> None:
    clauses = ("we run docker on a rocm box", "what is flash attention")
    written = [(1, 11), (2, 3), (3, 3)]
    subject, names = _question_names_first(clauses, (1, 11), written, _names_in)
    assert subject == (3, 11)
    assert names == [(3, 11), (1, 0), (2, 0)]


def test_a_topic_before_the_question_keeps_its_name() -> None:
    clauses = ("tree of thoughts", "is cot with branching")
    written = [(4, 11), (5, 1)]
    assert _question_names_first(clauses, (4, 11), written, _names_in) == ((4, 11), written)


def test_a_question_pointing_back_before_its_name_keeps_the_context_name() -> None:
    clauses = ("we use tree of thoughts in our agent", "is that just cot with branching")
    written = [(4, 11), (5, 3)]
    assert _question_names_first(clauses, (4, 11), written, _names_in) == ((4, 11), written)
