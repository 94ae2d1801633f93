"""Probes for task promote70 (issue #12): a question that writes one entry's name as its setting
and describes another ("in vllm, how does it guess several tokens with a small draft model ...")
gets the described entry's card; one that asks about the name it writes ("why is the kv cache so
big") gets that name's card or none; the same shape in another field gets none.
promote70_probes.tsv was written from entry ids and general knowledge before any search run on
them (bench/results/semantic.md "promote70")."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex

from .probe_files import ProbeFile, no_card, no_card_but_the_asked, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails the
# suite and is moved out of here. The GGUF and Top-p questions pass since calib73's `_offer_carded`.
STILL_FAILING = {
    "in pytorch, what's the thing that computes gradients for every weight automatically without me writing derivatives?",
    "our rag bot: what's the step that re-scores the top 50 retrieved chunks with a slower model before answering?",
    "our llm gateway sends easy prompts to a cheap model and hard ones to gpt-4, what is that feature?",
    "the vision transformer chops the photo up first, what are those little squares fed in as tokens?",
    "in a mixture-of-experts layer, what picks which expert each token is sent to?",
    "our chatbot ignored its system prompt after a webpage it read said 'ignore all previous instructions', what attack is that?",
}
PROBES = ProbeFile("promote70_probes.tsv", STILL_FAILING)

test_the_described_entry_is_carded = PROBES.test("card", expect=the_asked_card)
test_the_name_asked_about_keeps_its_card_or_none = PROBES.test(
    "asked", expect=no_card_but_the_asked
)
test_another_field_gets_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"card": 22, "asked": 12, "none": 12})


@pytest.mark.xfail(
    strict=True, reason="promote70's described card (4efe8a51) reverted: fails the ship rule"
)
def test_a_described_entry_the_meaning_ranks_first_is_carded(bundled_index: SearchIndex) -> None:
    """A dev23 row: vLLM is written, Paged Attention described and the meaning's first; main
    offers Paged Attention first with no card (`_described_offered`). 4efe8a51 carded it, with
    16 more tuning rows and no wrong card, but 13 right per wrong card held out."""
    result = bundled_index.search("how does vllm avoid fragmenting the kv cache")
    assert result.entry is not None, result
    assert result.entry.id == "paged-attention", result


def test_a_name_after_is_keeps_the_described_entry_an_offer(bundled_index: SearchIndex) -> None:
    """A dev5 row: "why is hbm ..." asks about HBM, though the meaning puts the packaging entry
    it describes first; that entry stays an offer, never the card (4efe8a51's guard)."""
    result = bundled_index.search("why is hbm the bottleneck for ai chip supply")
    assert result.entry is None or result.entry.id == "high-bandwidth-memory", result
