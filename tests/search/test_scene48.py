"""Probes for task scene48: a told scene naming a tool, then a question (issue #12, questions as
people ask them: "we serve llama on vllm and the first token takes ages. why?").
scene48_probes.tsv was written from the entry titles and general knowledge, before reading the
entries' text, the search code or any slice's rows: the question asks about another thing (never
the scene tool's card; the asked thing's card or among the first three offers), the question
points back at the tool (its card), and the same shape off the glossary (no card). The rule
measured for it (`SearchIndex._told_name_not_asked`, commit c250237: a told scene's name taken as
asked only for being written first, where the meaning puts another entry first) was reverted by
the ship rule (bench/results/semantic.md, scene48); the told scenes of my own it placed stay here
as strict expected failures for a next try."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex

from .probe_files import (
    ProbeFile,
    no_card,
    the_asked_card,
    the_asked_card_or_first_offers,
)


def the_asked_not_the_scene(result, asked: str, written: str) -> None:  # type: ignore[no-untyped-def]
    """Never the card of the tool that only sets the scene; the thing asked the card or among
    the first three offers."""
    assert result.entry is None or result.entry.id != written, result
    the_asked_card_or_first_offers(result, asked, written)


# Probes that fail on this branch (and on main before it): strict expected failures, so one
# that starts passing fails the suite and is moved out of here.
STILL_FAILING = {
    # the question writes the thing asked, but the scene's name is written first and the whole
    # message's meaning puts the scene's tool first too (no tuning row of this shape is wrong)
    "running llama.cpp on my macbook, what does q4 quantization actually do to the weights?",
    "we host deepseek on our own gpus, how does mixture of experts keep it fast?",
    "we deploy with docker and the model answers with confidently made up facts. why does it "
    "hallucinate?",
    # the meaning's first is the scene's tool (or under the rule's 0.5): the rule does not fire
    "we serve llama on vllm and the first token takes ages. why?",
    "we run vllm on a single gpu and it runs out of memory once many users connect. what's "
    "eating the memory per request?",
    "our team trains with hugging face transformers and the val loss started going up while "
    "train loss keeps dropping, what's happening?",
    # the meaning's first three miss the thing asked (Decode, Softmax); the reverted rule
    # placed the tool, the asked thing still not offered
    "i run models with mlx on an m2 mac. why is generating each new token so slow compared to "
    "reading the prompt?",
    "i'm running gpt-2 in pytorch on my laptop. what does softmax do at the end?",
    # "it" is vLLM here, but tuning's dev11 asks the same shape of Continuous Batching: LLM
    # Serving is offered first, vLLM second
    "we serve llama on vllm. how does it batch requests from many users?",
}
PROBES = ProbeFile("scene48_probes.tsv", STILL_FAILING)
# a told scene's name carded (or another entry offered first) where the question asks another
# thing: what the reverted rule fixed
REVERTED = pytest.mark.xfail(strict=True, reason="scene48's rule measured and reverted")

test_the_thing_asked_is_no_scene_card = PROBES.test("asked", expect=the_asked_not_the_scene)
test_a_question_pointing_back_has_the_tool_card = PROBES.test("back", expect=the_asked_card)
test_the_same_shape_off_the_glossary_is_no_card = PROBES.test("off", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"asked": 25, "back": 10, "off": 8})


@pytest.mark.parametrize(
    ("query", "asked", "scene"),
    [
        # each carded the scene's name on main, or offered another entry first
        (
            "our vector database holds a million support articles. how long should each piece "
            "we index be, and should pieces overlap?",
            "chunking",
            "vector-databases",
        ),
        (
            "our ai coding agent runs shell commands from user repos. where should those "
            "commands run so nothing breaks?",
            "sandbox",
            "ai-coding-agents",
        ),
        (
            "we serve mistral with vllm and every request starts with the same long system "
            "prompt. how does it avoid recomputing that part?",
            "prefix-caching",
            "vllm",
        ),
    ],
)
@REVERTED
def test_what_a_told_scene_leads_to_is_offered_first(
    bundled_index: SearchIndex, query: str, asked: str, scene: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is None, result
    assert [s.id for s in result.suggestions[:1]] == [asked], result


@pytest.mark.parametrize(
    ("query", "asked"),
    [
        # each offered, not carded, on main: the meaning's first leads clearly (the rocm
        # question's offer is carded since calib73's `_offer_carded`: see below)
        (
            "our korean users burn through tokens much faster than english users for the same "
            "text. why?",
            "tokenizer-fertility",
        ),
    ],
)
@REVERTED
def test_what_a_told_scene_leads_to_is_the_card(
    bundled_index: SearchIndex, query: str, asked: str
) -> None:
    the_asked_card(bundled_index.search(query), asked, "")


# Passes since calib73's `_offer_carded`: ROCm was offered first, the calibrated model is sure of it
def test_a_sure_offer_after_a_told_scene_is_the_card(bundled_index: SearchIndex) -> None:
    the_asked_card(
        bundled_index.search(
            "my graphics card is an amd one. can it run pytorch models like the nvidia cards do?"
        ),
        "rocm",
        "",
    )


# Passes since object65's `_object_name_offered`: Llama, the object of "we run", is offered
def test_a_told_scenes_tool_is_no_card_where_the_question_asks_elsewhere(
    bundled_index: SearchIndex,
) -> None:
    # Llama was the card; Continuous Batching is not among the meaning's first three here
    result = bundled_index.search(
        "we run llama 3 on vllm for our discord. when everyone asks at once, how does it fit "
        "new requests in without waiting?"
    )
    assert result.entry is None, result


@pytest.mark.parametrize(
    ("query", "tool"),
    [
        ("we use docker for everything. how does it isolate processes?", "docker"),
        ("i run llama.cpp on my laptop. how does it cope without a gpu?", "llama-cpp"),
        # the question names it again
        (
            "this month we put an llm gateway in front of our apps. what does a gateway do?",
            "llm-gateway",
        ),
    ],
)
def test_a_question_about_the_told_tool_keeps_its_card(
    bundled_index: SearchIndex, query: str, tool: str
) -> None:
    the_asked_card(bundled_index.search(query), tool, "")
