"""Probes for task tie70 (issue #12): a written entry name that the meaning ranks almost level
with another entry. Where the name only sets the scene or neighbours the thing asked, the asked
entry is the card or among the first offers; where the name is what is asked, its card stays.
tie70_probes.tsv was written from entry titles and general knowledge, before reading the tuning
rows, the entries' text or bot/search."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex
from bot.search.query import before_the_asking

from .probe_files import ProbeFile, the_asked_card, the_asked_card_or_first_offers

# Probes that fail on this branch and on main 75238385 alike: strict expected failures, so one
# that starts passing fails the suite and is moved out of here. None is a near tie of the written
# name: llama.cpp and Mixture of Experts are offered, not carded (the meaning ranks SwiGLU and
# Weights first); FlashAttention's card is the description stage's (the meaning ranks SRAM first
# by 0.18); GGUF is the meaning's first by 0.20.
STILL_FAILING: set[str] = {
    "when running llama.cpp, how are the weights squeezed into fewer bits",
    "when training a mixture of experts, what extra loss keeps the router logits from getting huge",
    "with flash attention, which fast on-chip memory holds the tiles",
    "with gguf files, what program runs them locally on a laptop",
}
PROBES = ProbeFile("tie70_probes.tsv", STILL_FAILING)

test_a_named_setting_gives_way_to_the_asked_entry = PROBES.test(
    "scene", expect=the_asked_card_or_first_offers
)
test_a_named_entry_asked_about_keeps_its_card = PROBES.test("asked", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"scene": 29, "asked": 22})


# Cases written after the code (not blind): tuning rows whose card was the written name's on main
# 75238385, the meaning ranking it within 0.012 of a related entry the text does not write.
@pytest.mark.parametrize(
    ("query", "name", "meant"),
    [
        (
            "after hybrid search returns 100 passages how do i pick the best 5",
            "hybrid-search",
            "reranking",
        ),
        (
            "our vllm server ran out of memory on long chats until the cache was stored in small"
            " blocks. what is that technique?",
            "vllm",
            "paged-attention",
        ),
        (
            "our ai coding agent runs npm install on whatever repos users paste in. where should"
            " that command actually execute?",
            "ai-coding-agents",
            "sandbox",
        ),
    ],
)
def test_a_tied_name_written_before_the_question_yields(
    bundled_index: SearchIndex, query: str, name: str, meant: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is None, result
    assert [s.id for s in result.suggestions[:2]] == [meant, name], result


# The same tie where the text read without the name still ranks it among its first three: the
# card stands (context69's control, Process Reward Model 0.001 behind).
def test_a_tied_name_the_rest_still_ranks_near_keeps_its_card(bundled_index: SearchIndex) -> None:
    query = (
        "when prompting with chain-of-thought, why does thinking step by step help on math problems"
    )
    the_asked_card(bundled_index.search(query), "chain-of-thought", "")


@pytest.mark.parametrize(
    ("before", "after", "written"),
    [
        ("after ", " returns 100 passages how do i pick the best 5", True),
        ("our ", " server ran out of memory what is that technique", True),
        ("our ", " agent runs npm install. where should that command execute?", True),
        ("its a ", " load it in lm studio whats special about that file", False),  # points back
        ("when i need ", " how does the library stop the model", True),
        ("what is ", "", False),  # asked
        ("how does ", " work", False),
        ("what ", " rank should i use", False),
        ("a single ", " is just a weighted sum right", False),  # nothing asked
        ("does the ", " library support anything besides lora", False),  # no asking word
        ("we use ", " for fine-tuning. how does it keep the weights small?", False),  # points back
    ],
)
def test_a_name_before_the_asking(before: str, after: str, written: bool) -> None:
    assert before_the_asking(before, after) is written
