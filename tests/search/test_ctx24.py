"""Probes for task ctx24: where a written name sits, in a told context or in the question.
ctx24_probes.tsv was written from the entry ids and titles and general knowledge before running
them, without reading the entry text they target (the search code had been read)."""

from __future__ import annotations

import pytest

from bot.search.query import leans_on_context, told_scene

from .probe_files import ProbeFile, the_asked_card, the_asked_card_or_first_offers

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING = {
    # a System Prompt card: the question alone puts Prompt Injection first (0.64), but System
    # Prompt is still among its ten nearest (8th, 0.44), so `_asked_elsewhere` keeps the card
    "my students use chatgpt with a long system prompt. what attack hides instructions inside a"
    " web page the model reads?",
    # offered, Latency and vLLM first: the question alone puts Latency and Serving Goodput
    # ahead of Service Level Objective (0.63, 0.63, 0.56); failing before ctx24 too
    "our company put vllm on the new servers. what target for response time do operators promise"
    " the teams calling the service?",
    # offered, vLLM third: no card for the named subject before ctx24 either (the rule keeps
    # the card of a named entry the question points back at; here there is none to keep)
    "we switched our bot to vllm last week. why does it take so long to start up?",
}
PROBES = ProbeFile("ctx24_probes.tsv", STILL_FAILING)

test_a_question_with_its_own_subject_is_not_the_context_card = PROBES.test(
    "elsewhere", expect=the_asked_card_or_first_offers
)
test_a_question_pointing_back_keeps_the_context_card = PROBES.test("leans", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"elsewhere": 6, "leans": 6})


@pytest.mark.parametrize(
    ("asked", "leans"),
    [
        ("how does it manage with no graphics card", True),
        ("what is that technique", True),
        ("what are those number formats about", True),
        ("whats it called when a model says no too often", False),
        ("what is it called when the judge picks a winner", False),
        ("what approach mixes word matching back in", False),
    ],
)
def test_a_question_leans_on_its_context_by_pointing_back(asked: str, leans: bool) -> None:
    assert leans_on_context(asked) is leans


@pytest.mark.parametrize(
    ("context", "told"),
    [
        ("we run llama 3 on vllm", True),
        ("in the diffusion model", True),
        ("my students use chatgpt", True),
        ("deepspeed zero stage 2 vs stage 3", False),
        ("decode phase is limited by memory bandwidth", False),
        ("", False),
    ],
)
def test_a_told_scene_has_an_asker_or_opens_with_a_setting(context: str, told: bool) -> None:
    assert told_scene(context) is told
