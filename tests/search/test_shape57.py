"""Probes for task shape57 (issue #12, dev19 shape C): a statement of what the asker uses ("we
use X for ..."), then a question. Where the question asks about another entry than the name X,
never X's card, and the asked entry's card; where it asks about X itself, X's card; an off-topic
statement and question, no card. shape57_probes.tsv was written from the entry titles and
general knowledge before reading dev19's rows of this shape, the entries' text or the search
code. Then the rule the task measured (`SearchIndex._stated_name_yields`): a statement's name that
the question after it does not write, which `_asked_name_offered` offers behind the meaning's
first, yields the card to that first where the meaning clearly leads."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex

from .probe_files import ProbeFile, no_card, not_the_written_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here. The statement's name carded: PyTorch (the meaning puts it
# first, 0.04 ahead of Automatic Differentiation), the Hugging Face Hub (0.78, Model Card 0.54).
NOT_WRITTEN_FAILING: set[str] = {
    "we use pytorch for everything. what's the thing that works out all the gradients for you"
    " from the forward pass?",
    "we share our models on the hugging face hub. what's the document that describes a model's"
    " intended use and its limits?",
}
ASKED_FAILING: set[str] = {
    *NOT_WRITTEN_FAILING,
    # Cross-Encoder's card: a fair reading of "rescores ... reading query and document together"
    "we use bm25 for search in our docs bot. what's the second pass that rescores the top"
    " results with a bigger model reading query and document together?",
    # the asked entry offered first at 83, tied with neighbours (the meaning's lead under 0.02;
    # the sentencepiece one of this shape is carded since calib73's `_offer_carded`)
    "we train with adamw. what's the trick where you scale the gradients down when their norm"
    " gets too big?",
    # `_stated_name_yields`' shape, under its bars: Mixture of Experts 0.15 ahead of DeepSeek
    # (`STATED_NAME_BEHIND` 0.165); Causal Mask 0.12 ahead of the next entry (`STATED_NAME_LEAD`)
    "we use deepseek for our coding bot. what's the design where only a few expert subnetworks"
    " run for each token?",
    "we use gpt-2 as a toy model in class. what's the mask that stops a token from looking at"
    " the tokens after it?",
}
SELF_FAILING: set[str] = {
    # offers: System Prompt first (RAG not in the meaning's first four); QLoRA and Quantization
    # tied (`_described_offered`); vLLM first, Paged Attention second
    "we use rag for our support bot. how does it decide what to put into the prompt?",
    "we quantize our models to 4 bit. what does quantization actually throw away?",
    "we turned on paged attention in our server. what problem does it solve?",
    # and the off-topic one: "react" is ReAct's (Reasoning and Acting) name
    "we use react for the frontend. what's the hook that runs code after the page renders?",
}
NOT_WRITTEN = ProbeFile("shape57_probes.tsv", NOT_WRITTEN_FAILING)
ASKED = ProbeFile("shape57_probes.tsv", ASKED_FAILING)
SELF = ProbeFile("shape57_probes.tsv", SELF_FAILING)

test_another_entry_asked_is_never_the_statements_card = NOT_WRITTEN.test(
    "other", expect=not_the_written_card
)
test_another_entry_asked_gets_its_card = ASKED.test("other", expect=the_asked_card)
test_the_statements_name_asked_gets_its_card = SELF.test("self", expect=the_asked_card)
test_an_off_topic_statement_and_question_get_no_card = SELF.test("none", expect=no_card)
test_the_probes_are_the_ones_written = SELF.counted({"other": 16, "self": 12, "none": 9})


# dev19's shape C rows (tuning) where main offered the statement's name beside the meaning's
# first at the same score: the meaning's first is the card now, the name the first offer.
@pytest.mark.parametrize(
    ("query", "asked", "named"),
    [
        (
            "attention is permutation invariant my notes say. so how does the model know word"
            " order?",
            "positional-encoding",
            "transformers",
        ),
        (
            "my langchain agent keeps printing thought / action / observation triples. who came"
            " up with that loop?",
            "reasoning-and-acting",
            "ai-agents",
        ),
        (
            "legal says we must honour gdpr deletion for training data. can a trained model"
            " forget someone?",
            "machine-unlearning",
            "training",
        ),
    ],
)
def test_the_meanings_clear_first_beats_the_statements_name(
    bundled_index: SearchIndex, query: str, asked: str, named: str
) -> None:
    result = bundled_index.search(query)
    the_asked_card(result, asked, "")
    assert result.suggestions[0].id == named, result


def test_a_name_the_question_writes_stays_offered(bundled_index: SearchIndex) -> None:
    # the same statement with the name written in the question as well ("for the agent"): it
    # may be what is asked, so `_asked_name_offered`'s offer stands though the meaning leads as
    # clearly (ReAct 0.64, AI Agents 0.47)
    result = bundled_index.search(
        "my langchain agent keeps printing thought / action / observation triples. who came up"
        " with that loop for the agent?"
    )
    assert result.entry is None, result
    assert [s.id for s in result.suggestions[:2]] == ["reasoning-and-acting", "ai-agents"], result


def test_a_close_second_keeps_the_offer(bundled_index: SearchIndex) -> None:
    # dev19: Warmup-Stable-Decay 0.59 leads Noise Schedule (the asked entry) by 0.163, under
    # `STATED_NAME_BEHIND`: the two stay offered, no wrong card
    result = bundled_index.search(
        "switching beta_schedule from linear to cosine made my samples better. why does that"
        " setting matter?"
    )
    assert result.entry is None, result
