"""Probes for task compare67 (issue #12 part 3): a comparison answers its first name with a card
and offers the second ("`rag` vs `lora` which one?": RAG's card, LoRA offered first), in every
shape people type on Discord ("X vs. Y", "X or Y for <use>", "X/Y which", "is X better than Y",
"X > Y?", "X instead of Y?", "X compared to Y", code spans, a mention, a typo ...). A side that is
no entry gets nothing invented, a comparison of things outside the glossaries no card, and a "vs"
that compares no two entries is no comparison. compare67_probes.tsv says when and how it was
written."""

from __future__ import annotations

import pytest

from bot.glossary.keys import normalize
from bot.search import SearchResult
from bot.search.query import asked_clause, compared_sides, query_core

from .probe_files import ProbeFile, no_card, the_asked_card
from .test_compare25 import first_carded_second_offered

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING = {
    # "should i use a X or Y for Z": the first side too long (an opener "should i use" before
    # the leading comparison was tried: all 73 pairs but this one unchanged, dev18 one more
    # wrong card, "should i use ollama or that berkeley engine with pagedattention ...":
    # PagedAttention; not kept)
    "should i use a cross encoder or bm25 for reranking",
    # the other side no name outright: "full fine tuning" (a typo's offers), "a jailbreak contest"
    # (offering the name such a side writes among other words was tried: dev13 one pair more,
    # dev4 one fewer, "ode vs sde samplers": Scheduler (Sampler) offered; not kept)
    "lora instead of full fine-tuning?",
    "red teaming or rather a jailbreak contest",
    "mixture of experts vs dense mlp, which is cheaper",
    # no card for the name beside a side that is no entry
    "lora vs my cousin's hacky script",
}
PROBES = ProbeFile("compare67_probes.tsv", STILL_FAILING)


def the_asked_card_or_none(result: SearchResult, asked: str, written: str) -> None:
    """The asked entry's card, or no card when the probe asks about none."""
    if asked == "none":
        no_card(result, asked, written)
    else:
        the_asked_card(result, asked, written)


test_a_comparison_cards_the_first_and_offers_the_second = PROBES.test(
    "pair", expect=first_carded_second_offered
)
test_a_comparison_read_after_the_change_cards_the_first = PROBES.test(
    "after", expect=first_carded_second_offered
)
test_a_side_that_is_no_entry_leaves_the_other_carded = PROBES.test(
    "notentry", expect=the_asked_card
)
test_an_off_topic_comparison_is_no_card = PROBES.test("offtopic", expect=no_card)
test_a_vs_comparing_no_two_entries_is_no_comparison = PROBES.test(
    "notcompare", expect=the_asked_card_or_none
)
test_the_probes_are_the_ones_written = PROBES.counted(
    {"pair": 73, "after": 4, "notentry": 7, "offtopic": 8, "notcompare": 4}
)


@pytest.mark.parametrize(
    ("query", "pair"),
    [
        # a clause ends the other side: the words after it are no part of its name
        ("rlaif vs rlhf, only difference is who gives the feedback?", ("rlaif", "rlhf")),
        ("safetensors vs ckpt, my friend says ckpt is dangerous, why", ("safetensors", "ckpt")),
        ("adam vs adamw. my notebook uses the first one", ("adam", "adamw")),
        # a first clause that compares nothing is no comparison
        ("my notebook uses adam, is that ok vs the default", None),
    ],
)
def test_a_clause_ends_the_other_side(query: str, pair: tuple[str, str] | None) -> None:
    normalized = normalize(query)
    core = query_core(normalized)
    assert compared_sides(query, normalized, core, asked_clause(query)) == pair
