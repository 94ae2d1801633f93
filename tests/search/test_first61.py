"""Probes for task first61 (issue #12, context59's "left" and cause57's W1): where a text lists
three or more entry names as alternatives, the card is the first listed entry's and the others
are offered, as the blind writers expect (as "difference between X and Y" cards X and offers Y);
lists of parts that are the subject, and lists in everyday or web talk, are no choice.
first61_probes.tsv was written from entry titles and general knowledge, before reading the search
code, the entries' text or any tuning row."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex, SearchResult
from bot.search.asked import search_asked

from .probe_files import ProbeFile, no_card, the_asked_card


def the_first_carded_the_next_offered(result: SearchResult, asked: str, written: str) -> None:
    """The first listed entry's card ("a|b": either), the next listed entry ("-": none) among
    the offers."""
    assert result.entry is not None, result
    assert result.entry.id in asked.split("|"), result
    if written != "-":
        assert written in {s.id for s in result.suggestions}, result


def a_listed_card_or_none(result: SearchResult, asked: str, written: str) -> None:
    """No card, or one of the listed entries' ("a|b|c")."""
    assert result.entry is None or result.entry.id in asked.split("|"), result


def the_whole_not_a_part(result: SearchResult, asked: str, written: str) -> None:
    """No card, or the whole's; never the first listed part's."""
    assert result.entry is None or result.entry.id == asked, result


# Probes that fail on this branch: strict expected failures, so one that starts passing fails the
# suite and is moved out of here.
STILL_FAILING: set[str] = {
    # a list in a text asking "which ...": the rule stands aside (tuning's "sgd vs adamw vs lion
    # vs muon, which of these 'update rules' should i pick" expects Optimizer, the kind; "rloo vs
    # grpo vs ppo, which one uses ..." the one that answers), so the card stays the search's
    "top-p/top-k/temperature, which one do you tweak first?",
    "which should i learn first: pytorch, numpy or cuda?",
    # with pairs61's PEFT lines (the family: adapters, prefix and prompt tuning) the meaning
    # cards the family of two listed items; the rule stands aside for "which"
    "which is lightest on memory: lora, full fine-tuning or prefix tuning?",
}
PROBES = ProbeFile("first61_probes.tsv", STILL_FAILING)

test_the_first_listed_alternative_is_carded = PROBES.test(
    "first", "alias", "notentry", expect=the_first_carded_the_next_offered
)
test_two_alternatives_card_the_first = PROBES.test("two", expect=the_asked_card)
test_an_ask_for_one_of_the_listed_cards_a_listed_one = PROBES.test(
    "which", expect=a_listed_card_or_none
)
test_parts_listed_with_their_whole_are_no_choice = PROBES.test(
    "subject", expect=the_whole_not_a_part
)
test_an_everyday_list_gets_no_card = PROBES.test("offtopic", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted(
    {"first": 21, "alias": 9, "notentry": 5, "two": 4, "which": 4, "subject": 3, "offtopic": 6}
)


def test_a_tuning_list_cards_its_first_entry_as_asked_anywhere(bundled_index: SearchIndex) -> None:
    """dev20 (tuning): main carded llama.cpp, which the meaning ranks first; the blind writer
    expects MLX, the first listed. `search_asked` is what /define, a mention and the CLI share.
    Failed on main."""
    query = (
        "mobile dev: on apple silicon, should i use mlx, llama.cpp or core ml for local inference?"
    )
    result = search_asked(bundled_index, query)
    assert result.entry is not None, result
    assert result.entry.id == "mlx", result
    assert result.suggestions[0].id == "llama-cpp", result
    assert result.other_side == "llama-cpp", result


# Tuning rows writing a list whose card the rule must leave: the aggressive first form (any text,
# any card) turned them, each right (or none) on main, into a listed entry's wrong card.
@pytest.mark.parametrize(
    ("query", "card"),
    [
        # dev18: "which of these ..." asks for their kind (Optimizer); main offers, no card
        (
            "sgd vs adamw vs lion vs muon, which of these 'update rules' should i pick for a small"
            " transformer",
            None,
        ),
        # dev17: a description's list names examples of its kind
        (
            "making a trained network smaller and faster through pruning, quantising or distilling"
            " it",
            "model-compression",
        ),
        # dev18: a half-remembered name's guesses
        (
            "training good output, goodput or 'useful throughput', the fraction of a long training"
            " run's time or compute that actually moves the model forward, after you subtract"
            " crashes, restarts, checkpoint saving and straggler nodes",
            "training-goodput",
        ),
        # dev6: "and" in a clause after a comparison is no list
        ("rmsnrom vs layernorm, why did llama and everyone after it switch??", None),
    ],
)
def test_a_list_the_rule_leaves_keeps_its_card(
    bundled_index: SearchIndex, query: str, card: str | None
) -> None:
    result = bundled_index.search(query)
    if card is None:
        assert result.entry is None or result.entry.id not in {"sgd", "layer-norm"}, result
    else:
        assert result.entry is not None, result
        assert result.entry.id == card, result
