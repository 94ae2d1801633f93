"""Probes for task ask76 (issue #12): a chat question about an entry with a near twin, a sibling
close in meaning (validation loss / held-out data, decontamination / benchmark contamination,
multi-head attention / attention head ...), gets the asked entry's card or, no card, the asked
entry as its first offer. ask76_probes.tsv says when and how they were written (before any
change, from entry ids and general knowledge). The change kept is data: asked-as phrasings for
entries with a near twin, saying what sets each apart (bench/results/semantic.md, "ask76")."""

from __future__ import annotations

from bot.search import SearchResult

from .probe_files import ProbeFile


def the_asked_card_or_first_offer(result: SearchResult, asked: str, written: str) -> None:
    """The asked entry's card, or no card and it offered first: never the twin's card."""
    shown = result.entry.id if result.entry else next((s.id for s in result.suggestions), None)
    assert shown == asked, result


# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING: set[str] = set()
PROBES = ProbeFile("ask76_probes.tsv", STILL_FAILING)

test_a_twin_question_gets_the_asked_entry = PROBES.test("twin", expect=the_asked_card_or_first_offer)
test_the_probes_are_the_ones_written = PROBES.counted({"twin": 28})
