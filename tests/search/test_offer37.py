"""Probes for task offer37: a short question whose right entry was offered first but not
carded (issue #12, dev15). "card": a short chat-style question that describes an entry without
its name: its card. "none": a short everyday or neighbouring-field question: no card.
offer37_probes.tsv was written from entry titles and general knowledge, not from the entries'
text nor any slice's rows. The rule measured (`fusion.question_agreed`, `index._question_described`
at eece6b4: a short question that writes no name is the card of the meaning's first at cosine
0.65 or more when the description stage puts the same entry first by `DESCRIBED_LEAD`) gained
right cards held out but made one off-topic card more: reverted (bench/results/semantic.md
"offer37"). None of the probes below changed under it."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch and on main 94fe1c1 alike: strict expected failures, so one
# that starts passing fails the suite and is moved out of here.
# The RAG question: the meaning's first at 0.524, under QUESTION_COSINE. The epoch question: the
# description stage puts Epoch first by 0.7 points only (Prefill second). The noise question:
# the description stage's two firsts (Diffusion Model 92.0, Noise Prediction 87.2) tie within the
# margin. The "run code or hit an api" question cards Function Calling, a defensible answer my
# probe did not name (Tool Calling). The power plant: Small Modular Reactor, carded by the
# description stage on main too (91.5 and the meaning's 0.703 agree).
STILL_FAILING = {
    "what's the one pass through the whole training data called?",
    "eli5 how does a picture model turn static noise into an image",
    "whats the name for letting the llm run code or hit an api by itself",
    "eli5 how does a nuclear power plant make electricity",
}
PROBES = ProbeFile("offer37_probes.tsv", STILL_FAILING)

test_a_short_question_describing_an_entry_is_its_card = PROBES.test("card", expect=the_asked_card)
test_a_short_everyday_question_is_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"card": 16, "none": 8})


# Written after the tuning rows and the code were read (a paraphrase of their kind, copied from
# no slice): main offers Membership Inference Attack first, the meaning's first at 0.65 or more
# and the description stage's clear first: both stages agree on a lone offer. Carded by the
# reverted rule; a card since bar56's `fusion.unnamed_lead` (no name written, the meaning's clear
# leader that the words found too).
def test_both_stages_agreeing_on_a_short_question_card_it(bundled_index: SearchIndex) -> None:
    result = bundled_index.search(
        "how do i find out whether a model saw my data during training by querying it?"
    )
    assert result.entry is not None, result
    assert result.entry.id == "membership-inference-attack", result


# The nearest off-topic agreement on the tuning slices ("what does r squared mean in linear
# regression" -> Mean Squared Error at 0.598), paraphrased: a next variant must keep it an offer.
@pytest.mark.parametrize(
    "query",
    [
        "what does r squared tell me in a linear regression?",
        "how is the r squared of a regression fit worked out?",
    ],
)
def test_a_neighbouring_field_question_stays_an_offer(
    bundled_index: SearchIndex, query: str
) -> None:
    assert bundled_index.search(query).entry is None
