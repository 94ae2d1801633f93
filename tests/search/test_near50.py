"""Probes for task near50: a description or question, no entry name written, that sits between an
entry and a close neighbour (issue #12, "never a confident wrong card"). Each must give no card
but its entry's, and its entry as the card or among the first three offers. near50_probes.tsv was
written from entry titles and general knowledge, before reading the entries' text, any slice's
rows or the search code."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex

from .probe_files import ProbeFile, no_card_but_the_asked, the_asked_card_or_first_offers

# Probes that fail on main 2566aa9: strict expected failures, so one that starts passing fails the
# suite and is moved out of here. LLM-as-a-Judge's description was RLAIF's card (the description
# stage's first) until pairs61's asked-as lines for the near pairs (RLAIF's among them): none now.
NO_WRONG_CARD_FAILING: set[str] = set()
SHOWN_FAILING = NO_WRONG_CARD_FAILING

NO_WRONG = ProbeFile("near50_probes.tsv", NO_WRONG_CARD_FAILING)
SHOWN = ProbeFile("near50_probes.tsv", SHOWN_FAILING)

test_a_near_pair_gives_no_wrong_card = NO_WRONG.test("near", expect=no_card_but_the_asked)
test_a_near_pair_shows_its_entry = SHOWN.test("near", expect=the_asked_card_or_first_offers)
test_the_probe_file_is_whole = NO_WRONG.counted({"near": 44})


@pytest.mark.xfail(strict=True, reason="near50's rule measured and reverted (held out)")
def test_a_near_pair_the_stages_split_is_offered(bundled_index: SearchIndex) -> None:
    """In near50's words, shaped like a tuning row whose card went to the near neighbour: the
    meaning puts Hallucination barely ahead of Hallucination Detection (under 0.15), which the
    description stage scores far higher. On main a card for Hallucination; near50's rule
    (`_second_described_offered`, reverted: bench/results/semantic.md "near50") offered both,
    the described one first."""
    result = bundled_index.search(
        "the chatbot spots its own invented facts before it sends them, like a built in fact checker"
    )
    assert result.entry is None, result
    assert [s.id for s in result.suggestions[:2]] == [
        "hallucination-detection",
        "hallucination",
    ], result
