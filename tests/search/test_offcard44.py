"""Probes for task offcard44: off-topic texts that still get a card (issue #12, off-topic).
"none": a neighbouring field's text (statistics, classical ML, databases, cloud, web, school,
chemistry, finance) or an everyday one using a glossary word in another sense: no card. "card":
an on-topic text near the edge (short, plain words, a name in lower case): its card.
offcard44_probes.tsv was written from entry titles and general knowledge, not from the entries'
text nor any slice's rows. The rule (`SearchIndex._unranked_off_field`, measured by offcard44
and reverted, applied again by offcard47 under ship rule v3): a card for an entry the meaning
does not rank at all, for a text leaning away from the field and writing no name only the
field's, becomes an offer (bench/results/semantic.md "offcard44", "offcard47")."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch and on main 2096a9f alike: strict expected failures, so one
# that starts passing fails the suite and is moved out of here. None is this rule's case.
# Description-stage cards for statistics questions, the meaning's first (Prompt Evaluation at
# 0.39, LayerNorm at 0.58); a plain word named in another sense: Checkpoint, the meaning's first
# (0.46) ("how many tokens do i need for the arcade machines?", Token, no card since setting63's
# counted name: offered behind Context Windows); "rag" with "explain ... simply" is offered, not carded; "look
# things up in my documents" is offered, Prompt Injection first (0.620 against RAG's 0.618).
# The t-test question gets no card since pairs61's asked-as lines for the near pairs; the airport
# security checkpoint none since everyday62 (its rest is nearer the travel setting).
STILL_FAILING = {
    "how do i work out a standard deviation by hand?",
    "explain rag simply",
    "how can the bot look things up in my documents before it answers?",
}
PROBES = ProbeFile("offcard44_probes.tsv", STILL_FAILING)

test_an_off_topic_text_is_no_card = PROBES.test("none", expect=no_card)
test_an_on_topic_text_near_the_edge_is_its_card = PROBES.test("card", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"none": 21, "card": 15})


# Written after the tuning rows and the code were read. A card for an entry the meaning does not
# rank among its first ten, for a text leaning away from the field: main cards Training Tokens
# (offer43 saw it) and Embeddings (a paraphrase of a dev10 row: "embedded" is a form of its
# name). Both fail on main 2096a9f and 9762814.
@pytest.mark.parametrize(
    "query",
    [
        "how do i choose the number of clusters for k-means?",
        "what's the difference between embedded systems and microcontrollers?",
    ],
)
def test_a_card_the_meaning_does_not_rank_for_an_off_field_text_is_none(
    bundled_index: SearchIndex, query: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is None, result


# Paraphrases of tuning rows (dev, dev2) the rule leaves alone: the meaning ranks neither card
# and the text leans away from the field (cosine 0.09-0.11), but it writes a name only the field
# uses ("optimizer", "finetune": no common-English word). Both fail with that exemption removed.
@pytest.mark.parametrize(
    ("query", "entry"),
    [
        ("which optimizer should i pick for a tiny transformer", "optimizer"),
        ("how do i finetune llama on my discord logs", "fine-tuning"),
    ],
)
def test_a_field_name_written_keeps_the_card_the_meaning_does_not_rank(
    bundled_index: SearchIndex, query: str, entry: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None, result
    assert result.entry.id == entry, result


# Written by offcard47 after the code was read (not from any slice's rows): the text asks about
# the card's entry by a verb no common-English list holds ("quantize", "distill"), which
# `find_mentions` does not read where the word starts a longer name, while the scene ("running
# llama on my old laptop") pulls the meaning away from the field and from the entry. Without
# `_writes_own_form` the rule offers the first (test_questions6's probe) and answers the
# second "none"; main 9762814 cards all three.
@pytest.mark.parametrize(
    ("query", "entry"),
    [
        ("running llama on my old laptop, do i have to quantize it first?", "quantization"),
        ("running mistral on my old pc, do i have to quantize it first?", "quantization"),
        pytest.param(
            "i want to run llama on my phone, do i have to distill it first?",
            "knowledge-distillation",
            # wrong49's `_asked_name_offered`: 15 words, the meaning puts Fine-Tuning 0.22 ahead
            # of Knowledge Distillation, offered second (its cost, bench/results/semantic.md)
            marks=pytest.mark.xfail(strict=True, reason="offered second since wrong49"),
        ),
    ],
)
def test_a_field_verb_for_the_card_keeps_the_card_the_meaning_does_not_rank(
    bundled_index: SearchIndex, query: str, entry: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None, result
    assert result.entry.id == entry, result
