"""Probes for task which62 (issue #12, first61's "left"): a "which <kind>" question over a list
cards the kind's entry with the listed entries offered; a list of commas alone ("adam, sgd,
rmsprop") reads as first61's lists do (the first listed carded, the rest offered); a list of
examples in a description, or names listed as a question's setting, keep their card.
which62_probes.tsv was written from entry titles and general knowledge, before reading the search
code, the entries' text or any tuning row."""

from __future__ import annotations

from bot.search import SearchIndex, SearchResult
from bot.search.asked import search_asked
from bot.search.query import opening_list, which_kind

from .probe_files import ProbeFile, no_card
from .test_first61 import a_listed_card_or_none, the_first_carded_the_next_offered


def the_asked_card_or_none(result: SearchResult, asked: str, written: str) -> None:
    """The thing described or asked about ("a|b": either), or no card; never a listed one's."""
    assert result.entry is None or result.entry.id in asked.split("|"), result


# Probes that fail on this branch: strict expected failures, so one that starts passing fails the
# suite and is moved out of here.
STILL_FAILING: set[str] = {
    # the kind's words name no entry ("serving engine", "prompting technique", "sampling
    # settings"): no kind to card, the search's answer stays
    "which serving engine do you recommend, vllm, llama.cpp or mlx?",
    "which prompting technique should i try first, few-shot, chain-of-thought or tree of thoughts?",
    "Which of these sampling settings should I change first - temperature, top-k or top-p?",
    # the kind is carded already (the search's own card), but the list names one entry only
    # (awq, gptq, prefix tuning, adapters are none), too few to read it as a choice
    "which quantization format should i download, gguf, awq or gptq?",
    "which peft method should i use, lora, prefix tuning or adapters?",
    # main's cards, not this task's rule: a description naming its kind before examples ("an
    # optimizer like adam, sgd or rmsprop that ...") cards an example; no list rule reads these
    (
        "an optimizer like adam, sgd or rmsprop that decides how the weights move after each"
        " gradient - what is that called in general?"
    ),
    (
        "the number that measures how wrong predictions are, computed as mse, cross-entropy or"
        " kl divergence depending on the task"
    ),
    # main's card: the listed cross-encoder, not the reranking asked about
    "in a setup with bm25, hnsw, a cross-encoder, what does reranking add?",
}
PROBES = ProbeFile("which62_probes.tsv", STILL_FAILING)

# first61's check: here the card asked ("asked") is the kind's, a listed entry among the offers
test_which_kind_cards_the_kind = PROBES.test("kind", expect=the_first_carded_the_next_offered)
test_which_without_a_kind_cards_a_listed_one_or_none = PROBES.test(
    "whichnone", "hostile", expect=a_listed_card_or_none
)
test_a_comma_list_cards_its_first = PROBES.test("comma", expect=the_first_carded_the_next_offered)
test_a_described_or_set_list_keeps_its_card = PROBES.test(
    "desc", "setting", expect=the_asked_card_or_none
)
test_an_everyday_comma_list_gets_no_card = PROBES.test("offtopic", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted(
    {"kind": 18, "whichnone": 6, "comma": 17, "desc": 6, "setting": 6, "offtopic": 4, "hostile": 2}
)


def test_a_which_kind_card_leads_with_the_listed_as_asked_anywhere(
    bundled_index: SearchIndex,
) -> None:
    """`search_asked` is what /define, a mention and the CLI share: the kind's card, its first
    button the first listed entry, the listed offered in order. Main offered, no card."""
    result = search_asked(
        bundled_index, "which of these optimizers should i use: adam, sgd or rmsprop?"
    )
    assert result.entry is not None, result
    assert result.entry.id == "optimizer", result
    assert [s.id for s in result.suggestions[:3]] == ["adam", "sgd", "rmsprop"], result
    assert result.other_side == "adam", result


def test_the_list_readings_split_where_written() -> None:
    assert opening_list("lora, qlora, peft differences") == (
        ("lora", "qlora", "peft differences"),
        "",
    )
    assert opening_list("bm25, hnsw, cross-encoder: when to use each?") == (
        ("bm25", "hnsw", "cross encoder"),
        "when to use each",
    )
    assert opening_list("i use pytorch, cuda, numpy") is not None  # the rule wants a name first
    assert opening_list("adam, sgd or rmsprop") is None  # one comma: `alternatives` reads it
    assert which_kind("sgd, adam or rmsprop: which optimizer is best?") == "optimizer is best"
    assert which_kind("which of these decoding strategies gives") == "decoding strategies gives"
    assert which_kind("adam, sgd or rmsprop?") is None


def test_a_long_comma_run_is_read_once() -> None:
    """A 300-character run of commas and names (a search reads its first 300 characters) is one
    list, its items in order; timed in bench (microseconds), not here."""
    run = ", ".join(["adam", "sgd", "rmsprop"] * 20)
    found = opening_list(run)
    assert found is not None
    assert found[0][:4] == ("adam", "sgd", "rmsprop", "adam")
    assert opening_list("which, " + ", " * 160 + "adam") is None
