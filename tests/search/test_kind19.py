"""Probes for "how does Y <verb> X" read with the entries' kinds (task kind19): where Y is a
tool or model (data/kinds/), X is what is asked about and Y only where it happens; "how does
gguf work", a verb of effect ("speed up", "help with") ask about Y. kind19_probes.tsv was written
from the entry titles and general knowledge before reading the search code, the entries or the
relevance rows."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex

from .probe_files import ProbeFile, no_card, no_card_but_the_asked, the_asked_card

# Probes that fail on this branch (all failed on main too): strict expected failures, so one
# that starts passing fails the suite and is moved out of here.
STILL_FAILING = {
    # a card for ReAct: its description and the meaning outvote the object named
    "how do ai agents do tool calling",
}
PROBES = ProbeFile("kind19_probes.tsv", STILL_FAILING)

test_the_doer_written_gets_no_card = PROBES.test("technique", expect=no_card_but_the_asked)
test_the_doer_asked_about_gets_its_card = PROBES.test("tool", expect=the_asked_card)
test_an_everyday_doer_gets_no_card = PROBES.test("everyday", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"technique": 11, "tool": 4, "everyday": 4})


def test_a_thing_in_a_tool_is_asked_about(bundled_index: SearchIndex) -> None:
    result = bundled_index.search("what is the system prompt in llama.cpp")
    assert result.entry is not None, result
    assert result.entry.id == "system-prompt"


@pytest.mark.parametrize(
    ("query", "asked", "doer"),
    [
        # the tool's description outscores the object's name: the tool is offered after it
        ("how does the diffusers library handle the noise schedule", "noise-schedule", "diffusers"),
        ("how does the hugging face hub store safetensors", "safetensors", "hugging-face-hub"),
        # "X in/on Y": the tool is the place the thing asked about is in
        ("what is a checkpoint on the hugging face hub", "checkpoint", "hugging-face-hub"),
    ],
)
def test_a_tool_that_still_leads_is_offered_after_the_object(
    bundled_index: SearchIndex, query: str, asked: str, doer: str
) -> None:
    result = bundled_index.search(query)
    # the object's card, or no card and the object offered first; the tool after it (since
    # compare27 the diffusers row's "schedule" is no typo of Scheduler: Noise Schedule's card)
    shown = [result.entry.id] if result.entry else []
    assert [*shown, *(s.id for s in result.suggestions)][:2] == [asked, doer], result


@pytest.mark.parametrize(
    ("query", "asked"),
    [
        # a method doing: its own kind, not a tool's, so it is what is asked about
        ("how does qlora do quantization", "quantized-low-rank-adaptation"),
        ("how does rope apply positional encoding", "rotary-position-embedding"),
    ],
)
def test_a_method_doing_keeps_its_card(bundled_index: SearchIndex, query: str, asked: str) -> None:
    result = bundled_index.search(query)
    assert result.entry is None or result.entry.id == asked, result
