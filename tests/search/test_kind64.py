"""Probes for task kind64 (issue #12, which62's "left"): a description naming its kind before
examples ("an optimizer like adam, sgd or rmsprop that ...") cards the kind or the thing
described, not the first example; a "which <kind>" list naming one entry offers it beside the
kind's card; a kind whose words name no entry ("which serving engine ...") would need the words'
meaning. kind64_probes.tsv was written from entry titles and general knowledge, before reading
the search code, the entries' text or any tuning row."""

from __future__ import annotations

from bot.search import SearchIndex, SearchResult
from bot.search.asked import search_asked
from bot.search.query import kind_examples

from .probe_files import ProbeFile, no_card
from .test_first61 import a_listed_card_or_none, the_first_carded_the_next_offered


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
    # one listed entry (tgi is none) and kind words naming no entry: the meaning of "serving
    # engine" alone is too loose to read (it offers PagedAttention, vLLM's), so nothing is read
    "a serving engine like vllm or tgi that batches requests from many users",
    "which serving engine should i pick, vllm or tgi",
    # kind words whose own search ranks the kind nowhere in its first offers ("a prompting
    # technique": Chain-of-Thought, RAG; "text generation method": LLM Inference, GPT-2 ...;
    # "randomness knob should": Temperature, a listed one, then Seed, Training)
    (
        "a prompting technique, e.g. few-shot or chain-of-thought, that improves answers without"
        " any training"
    ),
    "which text generation method should i use: beam search, greedy or top-p?",
    "which randomness knob should i turn first, temperature, top-k or top-p?",
    # main's answers, no list: a name asked about with its kind ("is adam an optimizer": Adam
    # offered second, no card) and a remark beside a name ("i like adam more than sgd, why is it
    # so popular?": Optimizer)
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
    """ "which of adam, sgd or rmsprop ...": the words after "which" name a listed entry, so no
    kind is read from their meaning (it would card AdamW, related to each)."""
    result = bundled_index.search("which of adam, sgd or rmsprop uses the least memory?")
    assert result.entry is None or result.entry.id in {"adam", "sgd", "rmsprop"}, result


def test_the_kind_and_its_examples_are_read_where_written() -> None:
    assert kind_examples("an optimizer like adam, sgd or rmsprop that keeps") == [
        ("an optimizer", ("adam", "sgd", "rmsprop that keeps"))
    ]
    assert kind_examples("optimizers such as adam and sgd: what do they do?") == [
        ("optimizers", ("adam", "sgd"))
    ]
    assert kind_examples("a prompting technique, e.g. few-shot or cot") == [
        ("a prompting technique", ("few shot", "cot"))
    ]
    assert kind_examples("i like adam more than sgd") == []  # no list after "like"
    assert kind_examples("explain beam search like i'm five") == []


def test_a_long_like_run_reads_a_few_example_words() -> None:
    """4,000 characters of "like a, b, ... or c": the example word is tried three times
    (`EXAMPLE_WORDS_READ`), each list matched from there only; timed in bench, not here."""
    run = "like a, b, " * 363 + "or c"
    found = kind_examples(run)
    assert len(found) <= 3
    assert all(items[:2] == ("a", "b") for _, items in found)
