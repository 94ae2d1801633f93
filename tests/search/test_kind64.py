"""Probes for task kind64 (issue #12, which62's "left"): a description naming its kind before
examples ("an optimizer like adam, sgd or rmsprop that ...") cards the kind or the thing
described, not the first example; a "which <kind>" list naming one entry offers it beside the
kind's card; a kind whose words name no entry ("which serving engine ...") would need the words'
meaning. kind64_probes.tsv was written from entry titles and general knowledge, before reading
the search code, the entries' text or any tuning row."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex, SearchResult
from bot.search.asked import search_asked

from .probe_files import ProbeFile, no_card
from .test_first61 import a_listed_card_or_none, the_first_carded_the_next_offered

STILL_FAILS = pytest.mark.xfail(
    strict=True, reason="kind64's variant carded this; reverted (rule v3 failed on held out)"
)


def the_kind_or_the_described_card(result: SearchResult, asked: str, written: str) -> None:
    """The kind's or the described entry's card ("a|b"); never the first example's."""
    assert result.entry is not None, result
    assert result.entry.id in asked.split("|"), result


def a_listed_card_or_nothing(result: SearchResult, asked: str, written: str) -> None:
    if asked == "-":
        assert result.entry is None, result
    else:
        a_listed_card_or_none(result, asked, written)


# Probes that fail on this branch: strict expected failures, so one that starts passing fails the
# suite and is moved out of here.
STILL_FAILING: set[str] = {
    # kind64's variant (commit bdcf4c62: `_kind_of_examples`, `_kind_meant`, a one-entry
    # which-kind list) passed the first 12 here and failed rule v3 on held out (wrong share
    # 4.16% -> 4.18%): reverted, so these are main's answers. A kind named before examples
    # carded as one of them, or none:
    "a serving engine like vllm or tgi that batches requests from many users",
    "a tokenizer like bpe or sentencepiece that splits text into subword pieces",
    (
        "a prompting technique, e.g. few-shot or chain-of-thought, that improves answers without"
        " any training"
    ),
    "optimizers such as adam, sgd and rmsprop: what do they all do?",
    "what do you call an update rule like adam, sgd or rmsprop in general?",
    # a which-kind list naming one entry: the kind carded without the entry offered, or the
    # entry carded ("rope", "sentencepiece"), or none
    "which quantization format should i download, gguf, awq or gptq?",
    "which peft method should i use, lora, prefix tuning or adapters?",
    "which positional encoding should i use: rope, alibi or nope?",
    "which tokenizer should i pick, sentencepiece, tiktoken or wordpiece?",
    "which of these optimizers should i try: lion, sophia or adamw?",
    # a which-kind whose words name no entry: no card, or the kind without the listed offered
    "which serving engine should i pick, vllm or tgi",
    "sgd vs adamw vs lion vs muon, which of these update rules should i pick for pretraining?",
    "which of these update rules should i start with: sgd, adam or rmsprop?",
    "which text generation method should i use: beam search, greedy or top-p?",
    "which weight update method is best for a small cnn, sgd, adam or rmsprop?",
    "which of these compression tricks keeps the most accuracy, quantization, pruning or distillation?",
    "which randomness knob should i turn first, temperature, top-k or top-p?",
    # main's answers, no list: a name asked about with its kind ("is adam an optimizer": Adam
    # offered second, no card) and a remark beside a name ("i like adam more than sgd, why is it
    # so popular?": Optimizer); the variant left these too
    "is adam an optimizer",
    "i like adam more than sgd, why is it so popular?",
}
PROBES = ProbeFile("kind64_probes.tsv", STILL_FAILING)

test_a_kind_before_examples_cards_the_kind = PROBES.test(
    "likekind", expect=the_kind_or_the_described_card
)
test_a_which_kind_list_of_one_entry_offers_it = PROBES.test(
    "whichone", "wordkind", expect=the_first_carded_the_next_offered
)
test_a_look_alike_keeps_its_card = PROBES.test("keep", expect=the_kind_or_the_described_card)
test_an_everyday_kind_before_examples_gets_no_card = PROBES.test("offtopic", expect=no_card)
test_a_long_like_run_is_a_listed_card_or_none = PROBES.test(
    "hostile", expect=a_listed_card_or_nothing
)
test_the_probes_are_the_ones_written = PROBES.counted(
    {"likekind": 20, "whichone": 8, "wordkind": 9, "keep": 18, "offtopic": 5, "hostile": 2}
)


@STILL_FAILS
def test_a_which_list_of_update_rules_cards_their_kind_as_asked_anywhere(
    bundled_index: SearchIndex,
) -> None:
    """dev18's row (tuning): the kind's words ("update rules") name no entry; their meaning
    (Optimizer), related to each listed entry, is the card, the listed offered first, through
    `search_asked`, which /define, mentions and the CLI share. Main: no card."""
    result = search_asked(
        bundled_index,
        "sgd vs adamw vs lion vs muon, which of these 'update rules' should i pick for a small"
        " transformer",
    )
    assert result.entry is not None, result
    assert result.entry.id == "optimizer", result
    assert [s.id for s in result.suggestions[:2]] == ["sgd", "adamw"], result
    assert result.other_side == "sgd", result


@STILL_FAILS
def test_a_kind_before_examples_leads_with_the_examples(bundled_index: SearchIndex) -> None:
    """A kind named before examples: its card, the examples offered in order. Main: Adam."""
    result = bundled_index.search(
        "an optimizer like adam, sgd or rmsprop that decides how the weights move after each"
        " gradient - what is that called in general?"
    )
    assert result.entry is not None, result
    assert result.entry.id == "optimizer", result
    assert [s.id for s in result.suggestions[:3]] == ["adam", "sgd", "rmsprop"], result


def test_a_listed_name_after_which_is_no_kind(bundled_index: SearchIndex) -> None:
    """ "which of adam, sgd or rmsprop ...": the words after "which" name a listed entry, no
    kind (the variant's first version read "of adam" by meaning and carded AdamW)."""
    result = bundled_index.search("which of adam, sgd or rmsprop uses the least memory?")
    assert result.entry is None or result.entry.id in {"adam", "sgd", "rmsprop"}, result
