"""Probes for task verbs77 (issue #12): an entry"s name written only as another word form -- a
verb ("how do i quantize"), a past participle ("distilled model"), an -ing form ("hallucinating"),
an adverb ("differentially private"), an agent noun ("quantizer", "reranker") or a British
spelling ("quantise", "distil") -- inside a chat question or a description, gets that entry"s
card; the same forms in an everyday or programming sense ("quantize midi notes", "decode base64",
"aligned with the centre of the page") get none, and beside another entry asked ("a quantized
lora") never the form"s. verbs77_probes.tsv says when and how they were written (before any
change, from titles.txt and general knowledge)."""

from __future__ import annotations

from bot.search import SearchResult

from .probe_files import ProbeFile, no_card, no_card_but_the_asked, the_asked_card


def the_asked_card_or_first_offer(result: SearchResult, asked: str, written: str) -> None:
    """The asked entry"s card, or no card and it offered first."""
    shown = result.entry.id if result.entry else next((s.id for s in result.suggestions), None)
    assert shown == asked, result


# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING = {
    # failing on main (d591e7e1) when written, and still: a form read as a name but outweighed
    # by another name or the meaning, or not read (an agent noun, "decoding": a generic word)
    # read (Quantization offered first) but beside a name written as it is, Llama
    "i quantized llama to 4 bit, is the quality loss noticeable",
    "which quantizer do people use for llama weights",  # no agent noun is read in a sentence
    # British "distil": derived_forms does not double its l (tried, dropped: semantic.md)
    "can you distil a big model into a small one",
    # a form of a common word ("hallucinate"): the meaning reads it as written (an offer)
    "the model hallucinated a function that doesn't exist, why",
    "i fine-tuned llama on my chats and it got worse",
    "how much data do i need to finetune a 7b model",
    "my model overfits after three epochs, what do i do",
    "how do i know if my model is overfit",
    "should we hire red teamers for our llm app",
    "why is decoding slower than prefilling",
    "what's the best way to serve llama to many users at once",
    "which earlier tokens does the model attend to",
    "a model quantized to fewer bits so it runs on a laptop",
    "a smaller student model distilled from a larger teacher",
    "a base model fine-tuned on your own examples",
    "a second model that reranks search results by relevance",
    "a word embedded as a list of numbers that keeps its meaning",
    "the model's layers parallelized across eight gpus",
    "weights and optimizer state fully sharded across the gpus",
    # since verbs77 a wrong card (Private Test Set; main offered it second): the meaning reads
    # "a training set decontamination against the test questions"
    "a training set decontaminated against the test questions",
}
PROBES = ProbeFile("verbs77_probes.tsv", STILL_FAILING)

test_a_form_in_a_question_gets_its_card = PROBES.test("question", expect=the_asked_card)
test_a_form_in_a_description_gets_its_card = PROBES.test("description", expect=the_asked_card)
test_a_weak_form_gets_its_card_or_first_offer = PROBES.test(
    "weak", expect=the_asked_card_or_first_offer
)
test_a_form_in_another_sense_gets_no_card = PROBES.test("othersense", expect=no_card)
test_a_form_beside_another_asked_entry_never_cards_its_own = PROBES.test(
    "otherentry", expect=no_card_but_the_asked
)
test_the_probes_are_the_ones_written = PROBES.counted(
    {"question": 49, "description": 20, "weak": 4, "othersense": 27, "otherentry": 6}
)
