"""Probes for task question49: chat-style questions as people type them in a Discord (issue #12,
questions >= 95% cards): lower case, no "?", "anyone know ...", "is X basically Y", "why does my
... keep ...". question49_probes.tsv was written from the entry titles and general knowledge,
before reading the entries' text, the search code or any slice's rows: questions writing the
entry's name (its card), questions about an entry without its name (its card), and the same
shapes from neighbouring fields (no card). The rule measured for the largest cause a rule can read
of a question answered with an offer (`SearchIndex._question_agreed`, commit ff7eb33: a question
naming nothing whose description-stage first is the meaning's first, from cosine 0.58, the text
leaning to the field, is that entry's card) was reverted by the ship rule (held out +50 right,
+3 wrong: the wrong share rose; bench/results/semantic.md "question49"); the paraphrases it
carded stay here as strict expected failures."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch (and on main before it): strict expected failures, so one
# that starts passing fails the suite and is moved out of here. question49's reverted rule
# (`SearchIndex._question_agreed`) fixed none of them: none is both stages' first at its bounds.
STILL_FAILING = {
    # "temperature" is read in its everyday sense (the meaning's best 0.374): nothing at all
    "can someone explain temperature like im 5",
    # "attention" written, the meaning puts Multi-Head Attention first: offered, no card
    "anyone got a simple explanation of the attention mechanism",
    # both stages' first, but the meaning at 0.572, under `QUESTION_COSINE`: offered first
    "why does my model keep making up citations",
    # "validation loss" written: Validation Loss's card, the meaning's first Overfitting by 0.002
    "why does my validation loss keep going up while the training loss goes down",
    # "llms" written: LLM's card, the meaning's first too (0.628; Next-Token Prediction 0.543)
    "why do people say llms just predict the next word",
    # "attention" written and asked: its card, though the meaning puts Positional Encoding first
    "how does the model know word order if attention ignores position",
    # both stages' first, the description stage's lead 4.7 (under `DESCRIBED_LEAD`); offered first
    "the thing where you make the model think step by step, whats it called",
    # both stages' first, but no question (no "?", no question word): offered first
    "the thing where you shrink a big model by training a small one to copy it",
    # "react" read as ReAct (a name written, match-term): a look-alike name, off the glossary
    "why does my react component keep re-rendering",
    # "layers" read as Layer: an everyday sense
    "how do i merge layers in photoshop",
}
PROBES = ProbeFile("question49_probes.tsv", STILL_FAILING)

test_a_named_chat_question_is_its_card = PROBES.test("named", expect=the_asked_card)
test_an_unnamed_chat_question_is_its_card = PROBES.test("unnamed", expect=the_asked_card)
test_the_same_shapes_off_the_glossary_are_no_card = PROBES.test("off", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"named": 23, "unnamed": 14, "off": 13})


# Written after the tuning rows and the code were read (paraphrases of tuning rows the rule
# carded, copied from no slice): main offers the entry first, both stages' first, the meaning
# from 0.58, the text leaning to the field. Carded by the reverted rule, so strict expected
# failures; Latency's is a card since bar56's `fusion.unnamed_lead` (the meaning's clear leader
# that the words found too).
@pytest.mark.parametrize(
    ("query", "entry"),
    [
        (
            "our app's bot replies slowly in the evening. what decides how long we wait for an "
            "answer?",
            "latency",
        ),
        pytest.param(
            "my hobby club saves the half-trained model every evening in case the machine "
            "crashes, what do you call that saved file?",
            "checkpoint",
            marks=pytest.mark.xfail(
                strict=True, reason="reverted: both stages' first stays an offer"
            ),
        ),
    ],
)
def test_both_stages_first_for_a_question_naming_nothing_is_its_card(
    bundled_index: SearchIndex, query: str, entry: str
) -> None:
    the_asked_card(bundled_index.search(query), entry, "")


# The off-topic agreements nearest the rule on the tuning slices (r squared -> Mean Squared
# Error, chem homework -> Over-Refusal, k-means -> Top-k, game lag -> Latency), paraphrased: no
# card on main, nor under the reverted rule (each leans away from the field, its cosine to the
# entries' mean under 0.2, or its words lead by less than 5); a next variant must keep them so.
@pytest.mark.parametrize(
    "query",
    [
        "what does adjusted r squared mean for my linear regression?",
        "does anyone have the answers for tonight's physics homework, chapter 4 questions 1-10?",
        "how do i choose k for k-means clustering on my customer data?",
        "anyone else getting huge lag on the na server tonight? ping 250",
    ],
)
def test_a_neighbouring_field_s_agreement_is_no_card(
    bundled_index: SearchIndex, query: str
) -> None:
    no_card(bundled_index.search(query), "", "")
