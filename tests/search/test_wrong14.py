"""Questions that write a broad or neighbouring entry's name while asking about another entry,
and questions that really ask about the name they write (task wrong14, issue #12). Probes in
wrong14_probes.tsv, written from the entry titles and general knowledge before reading the search
code or the entries' text; none from a relevance slice."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex

from .probe_files import ProbeFile, not_the_written_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails the
# suite and is moved out of here (the wrong14 section of bench/results/semantic.md). All but the
# last failed on main too; seven more failed on main and pass with `_described_offered`, one
# (the system prompt's) with wrong49's `_asked_name_offered`.
STILL_FAILING = {
    "how does a small draft model speed up llm inference",
    "why does the loss on data the model never trained on go up while the training loss goes down",
    "how does rlhf train a separate model to score each reasoning step",
    "how can rlhf be done with an ai giving the preferences instead of people",
    "how does llm evaluation use another model to grade the answers",
    "how do several ai agents split a job and talk to each other",
    "how does rag use a vector database to ground the answers of an llm",
    # passed on main: the router's words describe Model Routing (offered first, MoE second)
    "what is mixture of experts and how does the router choose experts per token",
}
PROBES = ProbeFile("wrong14_probes.tsv", STILL_FAILING)

test_a_name_written_as_context_gets_no_card = PROBES.test("narrow", expect=not_the_written_card)
test_a_name_asked_about_keeps_its_card = PROBES.test("real", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"narrow": 44, "real": 43})


@pytest.mark.parametrize(
    ("query", "described", "name"),
    [
        (
            "how does the kv cache get reused across requests that share the same long prompt start",
            "prefix-caching",
            "kv-cache",
        ),
        (
            "how does fine-tuning only train small low-rank matrices added to the weights",
            "lora-qlora",
            "fine-tuning",
        ),
        (
            "how does the optimizer decouple weight decay from the gradient update",
            "adamw",
            "optimizer",
        ),
    ],
)
def test_the_entry_the_words_describe_is_offered_before_the_name(
    bundled_index: SearchIndex, query: str, described: str, name: str
) -> None:
    """The words around the name describe another entry the text does not name: both are
    offered, the described one first."""
    result = bundled_index.search(query)
    assert result.entry is None
    assert [s.id for s in result.suggestions[:2]] == [described, name]


@pytest.mark.parametrize(
    "query",
    [
        # the described entry is named too: the name rules decide, as before
        "how does continuous batching increase throughput in llm serving",
        "how does a cross-encoder rerank search results in rag",
        # the words describe the name's own topic weakly: the name keeps its card
        "why does overfitting happen when the dataset is small and training runs many epochs",
    ],
)
def test_a_name_with_other_entries_words_around_it_keeps_its_card(
    bundled_index: SearchIndex, query: str
) -> None:
    result = bundled_index.search(query)
    assert result.status == "match"


def test_how_strongly_words_describe_an_entry(bundled_index: SearchIndex) -> None:
    fulltext = bundled_index.fulltext
    prefix = bundled_index.positions["prefix-caching"]
    words = "get reused across requests that share the same long prompt start"
    assert fulltext.strength(words, prefix) > fulltext.strength("long prompt", prefix) > 0
    assert fulltext.strength("bananas and mangoes", prefix) == 0.0
