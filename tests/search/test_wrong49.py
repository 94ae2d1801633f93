"""Probes for task wrong49: a description that sits between an entry and a close neighbour (issue
#12, "never a confident wrong card"). Each must give no card but its entry's (a wrong card is the
failure the product promises away), and its entry as the card or among the first three offers.
wrong49_probes.tsv was written from entry titles and general knowledge, before reading the
entries' text, any slice's rows or the search code."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex

from .probe_files import ProbeFile, no_card_but_the_asked, the_asked_card_or_first_offers

# Probes that fail on main a0d32ab: strict expected failures, so one that starts passing fails the
# suite and is moved out of here. Temperature's description was Softmax's card (the meaning stage)
# until pairs61's asked-as lines for Temperature and Softmax: none now.
NO_WRONG_CARD_FAILING: set[str] = set()
SHOWN_FAILING = NO_WRONG_CARD_FAILING

NO_WRONG = ProbeFile("wrong49_probes.tsv", NO_WRONG_CARD_FAILING)
SHOWN = ProbeFile("wrong49_probes.tsv", SHOWN_FAILING)

test_a_near_pair_gives_no_wrong_card = NO_WRONG.test("near", expect=no_card_but_the_asked)
test_a_near_pair_shows_its_entry = SHOWN.test("near", expect=the_asked_card_or_first_offers)
test_the_probe_file_is_whole = NO_WRONG.counted({"near": 36})


# Texts in wrong49's words, shaped like tuning rows whose card went to the name the text asks
# about while the meaning preferred another entry (bench/results/semantic.md "wrong49"). On main
# a0d32ab each is a card for the name; `_asked_name_offered` offers the meaning's first ahead.
OUTRANKED = [
    (
        "our finetuning job reports 35% mfu on the h100s, is that decent and what exactly is it"
        " a percentage of?",
        "hardware-flops-utilization",
        "fine-tuning",
    ),
    (
        "why do transformers normalise the hidden vector before every sublayer, what is that"
        " step actually for?",
        "layer-norm",
        "training-step",
    ),
    (
        "how did people finetune a 65b model on one 48gb gpu back in 2023, what was the trick?",
        "quantized-low-rank-adaptation",
        "fine-tuning",
    ),
]


@pytest.mark.parametrize(("query", "meant", "name"), OUTRANKED)
def test_a_name_the_meaning_outranks_in_a_long_text_is_offered(
    bundled_index: SearchIndex, query: str, meant: str, name: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is None, result
    # the name behind any offer that stood ahead of the meaning's first (third50), in the three
    assert result.suggestions[0].id == meant, result
    assert name in [s.id for s in result.suggestions[:3]], result


def test_a_right_name_the_rule_turns_into_an_offer_stays_offered(
    bundled_index: SearchIndex,
) -> None:
    """The rule's cost, in wrong49's words after a tuning row it turned from a right card into
    an offer: the name asked about stays offered second, behind the meaning's broader first."""
    result = bundled_index.search(
        "our reading group moved the class project from plain sgd over to adam, why does adam"
        " tend to converge quicker on it?"
    )
    assert result.entry is None, result
    assert [s.id for s in result.suggestions[:2]] == ["optimizer", "adam"], result


def test_a_short_text_keeps_the_name_it_asks_about(bundled_index: SearchIndex) -> None:
    """Under `ASKED_NAME_WORDS` words the name asked about keeps its card, though the meaning
    puts Optimizer 0.23 ahead of Adam here (13 words)."""
    result = bundled_index.search(
        "our class moved from plain sgd to adam, why does adam converge quicker?"
    )
    assert result.entry is not None, result
    assert result.entry.id == "adam", result
