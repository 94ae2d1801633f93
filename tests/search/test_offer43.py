"""Probes for task offer43: a short question whose right entry is offered first, carded where
both stages agree and the text leans to the field (issue #12, questions). "card": a short chat
question that describes an entry without its name: its card. "none": a neighbouring field's
question (statistics, classical ML, databases, cloud, web): no card. offer43_probes.tsv was
written from entry titles and general knowledge, not from the entries' text nor any slice's
rows. The rule measured (`index._question_agreed`, `fusion.QUESTION_COSINE` 0.65,
`QUESTION_LEAD` 5, `QUESTION_FIELD_COSINE` 0.2 at 803d116: offer37's agreement with a guard on
the text's cosine to the field as a whole) gained right cards held out, made no off-topic card
more, but one on-topic wrong card more, the wrong share higher: reverted (bench/results/
semantic.md "offer43"). None of the probes below changed under it."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch and on main 2096a9f alike: strict expected failures, so one
# that starts passing fails the suite and is moved out of here. None is this rule's case: the
# two stages disagree. Softmax: the meaning puts Logits first (0.755 against 0.752). Overfitting:
# offered first, but the description stage's first is Hardware FLOPs Utilization ("flops").
# Scaling Laws: "loss" is a name written, Loss's card. Automation Bias: the meaning puts
# Appropriate Reliance first (0.78 against 0.70).
STILL_FAILING = {
    "what turns the raw scores at the end into probabilities that add up to one?",
    "what's it called when a model aces the training data but flops on new data?",
    "why does loss drop so predictably as you add more parameters, data and compute?",
    "what's it called when people just trust whatever the ai tells them?",
}
PROBES = ProbeFile("offer43_probes.tsv", STILL_FAILING)

test_a_short_question_describing_an_entry_is_its_card = PROBES.test("card", expect=the_asked_card)
test_a_neighbouring_field_question_is_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"card": 16, "none": 11})


# Written after the tuning rows and the code were read (paraphrases of rows the rule carded,
# copied from no slice): main offers the entry first, the meaning's first at 0.65 or more, the
# description stage's clear first, the text leaning to the field. Carded by the reverted rule,
# so strict expected failures.
# The first is a card since calib75's refit (the calibrated offer model, not offer43's rule).
@pytest.mark.parametrize(
    ("query", "entry"),
    [
        (
            "is there a way to check automatically that the bot didn't invent facts before a "
            "user reads the reply?",
            "hallucination-detection",
        ),
        pytest.param(
            "how does a robot voice read a book out loud like a person?",
            "text-to-speech",
            marks=pytest.mark.xfail(
                strict=True, reason="reverted: both stages' lone offer stays an offer"
            ),
        ),
    ],
)
def test_both_stages_agreeing_on_a_short_question_card_it(
    bundled_index: SearchIndex, query: str, entry: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None, result
    assert result.entry.id == entry, result


# A paraphrase of a tuning off-topic row (everyday2): both stages put Over-Refusal first (the
# meaning at 0.654, the description stage by 23.6), but the text leans away from the field (its
# cosine to the entries' mean 0.085): an offer, as on main. offer37's rule (no field guard)
# cards it; the reverted one did not. A next variant must keep it an offer.
HOMEWORK = "can someone send me the answers for the chem homework questions?"


def test_a_question_leaning_away_from_the_field_stays_an_offer(
    bundled_index: SearchIndex,
) -> None:
    result = bundled_index.search(HOMEWORK)
    assert result.entry is None, result
    assert [s.id for s in result.suggestions[:1]] == ["over-refusal"], result
