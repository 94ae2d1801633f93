"""Probes for task state55 (issue #12, "never a confident wrong card"): a statement before the
question ("we switched to vllm last week. how does it batch requests ...?"). Where the
statement names one entry and the question asks about another, never the statement's card; the
asked entry as the card or among the first three offers. Where the question asks about the
entry the statement names, its card; an everyday statement and question, no card.
state55_probes.tsv was written from the entry titles and general knowledge before reading
dev19's rows of this shape, the entries' text or the search code."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex

from .probe_files import (
    ProbeFile,
    no_card,
    not_the_written_card,
    the_asked_card,
    the_asked_card_or_first_offers,
)

# Probes that fail on main 6aa0b5d1 and on this branch alike: strict expected failures. The
# statement's name is carded where the question points back with "it" at it ("how does it batch
# requests ...", "how much text can it read"), or where the meaning of the whole message leans
# to it (Few-Shot Learning for "why does the model make facts up"): the rule state55
# measured (reverted) read only a question pointing at a thing of another kind ("what is that
# technique").
NOT_WRITTEN_FAILING = {
    "we switched to vllm last week. how does it batch requests from different users together?",
    "our team uses few-shot learning for the classifier prompts. why does the model sometimes"
    " just make facts up?",
    "my model uses rotary embeddings. how much text can it actually read at once?",
}
# Besides those: Benchmark Contamination's card for the decontamination question (a neighbour,
# not the statement's name); GGUF's card for "the q4 in the file name" (Quantization offered).
SHOWN_FAILING = {
    *NOT_WRITTEN_FAILING,
    "we dedupe our scraped data with minhash. how do we make sure the test set didn't leak into"
    " training?",
    "i run models with llama.cpp on my laptop. what does the q4 in the file name mean?",
}
# Goodhart's Law only offered first ("what does it say" says nothing of its own); Red Teaming's
# card for "our red team found a jailbreak ... what is it": the first name written wins.
NAMED_FAILING = {
    "someone mentioned goodhart's law in the meeting. what does it say?",
    "our red team found a jailbreak yesterday. what is it in plain terms?",
}

NOT_WRITTEN = ProbeFile("state55_probes.tsv", NOT_WRITTEN_FAILING)
SHOWN = ProbeFile("state55_probes.tsv", SHOWN_FAILING)
NAMED = ProbeFile("state55_probes.tsv", NAMED_FAILING)
PROBES = ProbeFile("state55_probes.tsv")

test_a_statement_name_is_no_card = NOT_WRITTEN.test("other", expect=not_the_written_card)
test_a_statement_shows_the_asked = SHOWN.test("other", expect=the_asked_card_or_first_offers)
test_a_statement_name_asked_keeps_its_card = NAMED.test("named", expect=the_asked_card)
test_an_everyday_statement_is_no_card = PROBES.test("offtopic", expect=no_card)
test_the_probe_file_is_whole = PROBES.counted({"other": 20, "named": 12, "offtopic": 6})


# In state55's words, shaped like the tuning rows where the statement's tool got the card
# (dev11 vLLM, dev11 Hugging Face Hub): each a card for the tool on main 6aa0b5d1. The rule
# state55 measured (`_doer_not_pointed_at`: a statement's tool or model is no card where the
# question points at a thing of a kind no tool or model is, "what is that technique") passed
# both; it cost one held-out right card and was reverted: strict expected failures. The Hugging
# Face Hub one passes since ask76's asked-as lines for near twins.
@pytest.mark.parametrize(
    ("query", "tool", "asked"),
    [
        pytest.param(
            "our vllm server crashed out of memory on long chats until the cache was split into"
            " small blocks. what is that technique?",
            "vllm",
            "paged-attention",
            marks=pytest.mark.xfail(
                strict=True, reason="the statement's tool is carded (state55's rule reverted)"
            ),
        ),
        (
            "the hugging face hub page for our model shows bf16 and int8 files. what are those"
            " number formats?",
            "hugging-face-hub",
            "floating-point",
        ),
    ],
)
def test_the_statement_tool_is_no_card(
    bundled_index: SearchIndex, query: str, tool: str, asked: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is None or result.entry.id != tool, result
    the_asked_card_or_first_offers(result, asked, tool)


@pytest.mark.parametrize(
    ("query", "card"),
    [
        ("we switched to vllm last week. what is that?", "vllm"),
        (
            "our datacenter reports a pue of 1.1. what does that number mean?",
            "power-usage-effectiveness",
        ),
    ],
)
def test_the_name_pointed_at_keeps_its_card(
    bundled_index: SearchIndex, query: str, card: str
) -> None:
    the_asked_card(bundled_index.search(query), card, card)
