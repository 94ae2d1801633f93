"""Probes for task review72 (issue #12): asked71's "X ..., what is that" with two names written,
and long71's clause vote on messages of many short clauses (filler, emoji, code spans).
review72_probes.tsv says when and how they were written."""

from __future__ import annotations

from bot.search import SearchResult

from .probe_files import ProbeFile, no_card, the_asked_card


def among_filler(clue: str, clauses: int) -> str:
    """The clauses probes' long rows: `clauses` filler clauses, the clue in their middle."""
    filler = ["ok", "yeah", "lol", "anyway", "so", "right", "hmm", "sure", "cool", "nice"]
    parts = [filler[i % len(filler)] for i in range(clauses)]
    return ". ".join([*parts[: clauses // 2], clue, *parts[clauses // 2 :]]) + "."


# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here. The same on main 177655cf, before long71's clause vote (no right card lost by the seventh
# session): a short question among 60 or more filler clauses is an offer or nothing, and so is
# "what does lora do" after code spans. "what is lora" among 60 opens its card since long75's
# `SearchIndex._asked_outright_carded`; among 560, its clause past `query.OUTRIGHT_CLAUSES`, not.
STILL_FAILING = {
    among_filler("what does a kv cache do", 120),
    among_filler("what is prompt injection", 560),
    "`x = 1`. `y = 2`. `z`. what does lora do",
}
PROBES = ProbeFile("review72_probes.tsv", STILL_FAILING)


def one_of_the_two_or_none(result: SearchResult, asked: str, written: str) -> None:
    """Two names written, then "what is that": either name's card, or none; never a third."""
    assert result.entry is None or result.entry.id in {asked, written}, result


test_two_names_then_what_is_that_opens_neither_a_third = PROBES.test(
    "two", expect=one_of_the_two_or_none
)
test_a_question_among_many_short_clauses_keeps_its_card = PROBES.test(
    "clauses", expect=the_asked_card
)
test_many_short_clauses_of_nothing_open_no_card = PROBES.test("noise", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"two": 8, "clauses": 8, "noise": 4})
