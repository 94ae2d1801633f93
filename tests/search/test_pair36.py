"""Probes for task pair36: a question about one of a close pair (RLHF beside DPO, few- beside
zero-shot, KV cache beside prefix caching, LayerNorm beside RMSNorm ...). "one": the words say
which of the pair is asked, so its card and not the neighbour's (issue #12). "between": the
question fits both, so no card and both among the first three offers.
pair36_probes.tsv was written from entry titles and general knowledge, not from the entries'
text nor any slice's rows."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex, SearchResult

from .probe_files import ProbeFile, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
# Main 013676a and this branch alike, none of them this task's cause (a meaning's card for the
# asked entry's near neighbour): the GPU question offers CPU first; the temperature one offers
# it first, no card; the perplexity one cards Tokenizer Fertility (the meaning's third); four
# "between" questions card one side (Function Calling, LayerNorm by the description stage;
# QLoRA) or offer DPO, ORPO, RLOO without RLHF in the first three. The "human choices between
# two answers" question offers RLHF beside DPO since pairs61's asked-as lines.
STILL_FAILING = {
    (
        "what chip with thousands of small cores was first built for video games and now trains "
        "most models?"
    ),
    "which setting divides the logits before the softmax to make the output more or less random?",
    (
        "what metric is the exponential of the average loss per token, read as how many words "
        "the model is choosing between?"
    ),
    "how do models call external apis by writing out json arguments?",
    "how do i fine-tune a big model cheaply with small adapters on top of a 4-bit base?",
    "what normalization do llms apply before each attention block?",
}
PROBES = ProbeFile("pair36_probes.tsv", STILL_FAILING)


def both_offered(result: SearchResult, asked: str, written: str) -> None:
    assert result.entry is None, result
    assert {asked, written} <= {s.id for s in result.suggestions[:3]}, result


test_the_asked_of_a_pair_is_carded = PROBES.test("one", expect=the_asked_card)
test_a_question_between_a_pair_is_an_offer = PROBES.test("between", expect=both_offered)
test_the_probes_are_the_ones_written = PROBES.counted({"one": 20, "between": 5})


# Written after the tuning misses were read (a paraphrase of their kind, copied from no slice):
# the meaning puts Continuous Batching first, Latency a near neighbour close behind; "wait",
# "reply" are Latency's words and not Continuous Batching's. pair36's rule (`_pair_offered`: the
# words only one of a near pair uses tell the neighbour) passed it but cost held-out right cards;
# it was reverted (bench/results/semantic.md "pair36"), so it stays a strict expected failure.
@pytest.mark.xfail(strict=True, reason="reverted: the meaning cards the neighbour")
def test_the_neighbour_the_words_tell_is_offered_first(bundled_index: SearchIndex) -> None:
    result = bundled_index.search(
        "our support bot feels sluggish, what decides how long people wait before its reply "
        "shows up?"
    )
    assert result.entry is None, result
    assert [s.id for s in result.suggestions[:2]] == ["latency", "continuous-batching"]
