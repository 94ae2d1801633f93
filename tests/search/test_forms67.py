"""Probes for names written in forms the matcher may not know (task forms67): verb and agent
forms ("finetuned", "red teamers"), hyphen/space/joined variants ("fine tune", "kvcache"), chat
clippings ("temp", "quant", "ctx") and phonetic misspellings ("tokin", "lamma"), alone and inside
a chat question; and the same forms in an everyday or programming sense, which must not card
the entry. forms67_probes.tsv was written from titles.txt and general knowledge before reading
the search code, the entries or dev21's rows."""

from __future__ import annotations

from bot.search import SearchIndex

from .probe_files import ProbeFile, no_card, not_the_written_card, the_asked_card

# Probes that still fail on this branch: strict expected failures, so one that starts passing
# fails the suite and is moved out of here.
STILL_FAILING = {
    # clippings: "quants" offers QLoRA, then Quantization (no shorthand: a plural of quant);
    # "temp" is an alias but not read as the subject here; "param" is written out, but "what is
    # a parameter in an llm" itself gets offers only (Parameter first)
    "quants",
    "hallu",  # Hallucination, then Hallucination Detection offered: no shorthand, as both start so
    "why does it hallu so much",  # nothing
    "should i lower the temp for coding",  # nothing
    "what is a param in an llm",  # Parameter offered first
    # misspellings with a letter changed or two edits: the typo rules refuse those (a letter
    # changed is as often another word: "llava"); offered alone, nothing in a sentence
    "tempreture",
    "tokin",
    "tokins",
    "lamma",
    "what does tempreture do",
    "what is a tokin",
    "how many tokins is a word",
    "is lamma open source",
    # forms inside a question the subject rules do not read as the name: offered or nothing
    "watermarked text",  # Watermarking offered
    "is it worth it to finetune a 7b model",  # Fine-Tuning offered first
    "how long does it take to fine tune a model",  # Learning Rate, Mid-Training offered
    "whats the point of quantized models",  # Quantization offered first
    "how do you embed a document for search",  # Dual Encoder offered, then Embeddings
    "can a chatbot get jailbroken",  # an irregular form: no rule makes "jailbroken" Jailbreak
    # everyday senses carded (all on main too): the act done to an everyday thing, a word of
    # the field in a non-field sentence
    "how do i fine tune my guitar",  # Fine-Tuning card
    "how to fine tune a carburetor",  # Fine-Tuning card
    "guard rails on a staircase building code",  # Guardrails card
    "how do i pass a param in a url query string",  # Parameter card (on main too)
    # ("how many tokens for the arcade machine": offered since offfield76's other senses)
}
PROBES = ProbeFile("forms67_probes.tsv", STILL_FAILING)

test_a_form_alone_gets_its_card = PROBES.test("alone", expect=the_asked_card)
test_a_form_in_a_chat_question_gets_its_card = PROBES.test("chat", expect=the_asked_card)
test_a_form_in_its_everyday_sense_gets_no_card = PROBES.test("everyday", expect=no_card)
test_a_clipping_in_its_programming_sense_is_not_the_entry = PROBES.test(
    "notthis", expect=not_the_written_card
)
test_the_probes_are_the_ones_written = PROBES.counted(
    {"alone": 70, "chat": 37, "everyday": 18, "notthis": 3}
)


def test_shorthand_alone_is_the_name_it_shortens(bundled_index: SearchIndex) -> None:
    # before: one word alone was left as typed, so "attn" only offered FlashAttention
    found = [bundled_index.search(w).entry for w in ("attn", "Quant", "ctx", "param")]
    assert [e.id if e else None for e in found] == [
        "attention",
        "quantization",
        "context",
        "parameter",
    ]
    assert bundled_index.search("mem").entry is None  # "memory" is no whole name
