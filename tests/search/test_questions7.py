"""Seventh round of question rules. Queries written for this file before each rule was kept
(none from a relevance slice)."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex
from bot.search.fusion import SUBJECT, fuse
from bot.search.query import asks_for_name
from bot.search.ranking import MATCH_SCORE, MENTION_SCORE, Pool

# -- a name written as the setting of what the words describe --------------------------------

DESCRIBED, NAMED, OTHER = 0, 1, 2


def _fused(similar: list[tuple[int, float]]) -> int:
    """The leader after fusing: a description stage's lead for DESCRIBED, a name for NAMED
    that the question asks about."""
    pool = Pool()
    pool.add(DESCRIBED, 90.0, "description")
    pool.add(NAMED, MENTION_SCORE, "match-term")
    fuse(pool, similar, question=True, asked_about=(NAMED, SUBJECT))
    return pool.ranked()[0][0]


def test_the_name_asked_about_yields_when_words_and_meaning_agree_on_another_entry() -> None:
    assert _fused([(DESCRIBED, 0.70), (OTHER, 0.50), (NAMED, 0.40)]) == DESCRIBED
    assert _fused([(DESCRIBED, 0.60), (OTHER, 0.50)]) == DESCRIBED  # the name: no rank at all


def test_the_name_asked_about_stands_where_the_meaning_hardly_prefers_the_description() -> None:
    assert _fused([(DESCRIBED, 0.63), (NAMED, 0.57), (OTHER, 0.50)]) == NAMED
    assert _fused([(DESCRIBED, 0.60), (OTHER, 0.50), (NAMED, 0.43)]) == NAMED


@pytest.mark.parametrize(
    ("query", "card"),
    [
        # the words describe a narrower entry, the name only says whose (Agents before the rule)
        ("how do i make my agent remember things from last week's conversation", "memory-systems"),
        # ... while a question about the named thing keeps its card
        ("why does my loss spike and then come back down", "loss"),
        ("which gpu should i buy for running a 13b model at home", "gpu"),
        ("how do i pick the learning rate for a small transformer", "learning-rate"),
    ],
)
def test_a_name_that_only_sets_the_scene_of_a_described_entry(
    bundled_index: SearchIndex, query: str, card: str
) -> None:
    assert bundled_index.search(query).entry_id == card


# -- "X, what does that mean": the pronoun points back at the name before it ----------------


@pytest.mark.parametrize(
    ("query", "card"),
    [
        # no card before the rule
        ("the paper uses a noise schedule, what is that exactly", "noise-schedule"),
        # cards before the rule too
        ("my friend keeps mentioning kv cache, what does that mean", "kv-cache"),
        ("grpo in the deepseek paper, what is it", "group-relative-policy-optimization"),
        # the name only qualifies the thing the pronoun means ("fee"), or is used in its
        # everyday sense: no card
        ("the bank tokenization fee on my card, what is that", None),
        ("my step down transformer is buzzing, what does that mean", None),
        ("grandma says the sourdough temperature is off, what does that mean", None),
        # two names: the one seen, not where it was seen, is pointed back at (asked71)
        ("saw 'speculative decoding' in the vllm docs, what is it", "speculative-decoding"),
    ],
)
def test_a_question_that_points_back_at_the_name_before_it(
    bundled_index: SearchIndex, query: str, card: str | None
) -> None:
    assert bundled_index.search(query).entry_id == card


@pytest.mark.parametrize(
    ("query", "card"),
    [
        # chat's own openers are openers like "what is" (offered only, before)
        ("wtf is causal attention 😵", "causal-mask"),
        ("wtf is a paged attention", "paged-attention"),
        ("wtf is prefix caching 😅", "prefix-caching"),
        ("wth is rmsnorm", "root-mean-square-normalization"),
        ("what the heck is speculative decoding", "speculative-decoding"),
    ],
)
def test_a_blunt_opener_asks_what_a_term_is(
    bundled_index: SearchIndex, query: str, card: str
) -> None:
    assert bundled_index.search(query).entry_id == card


@pytest.mark.parametrize(
    ("query", "card"),
    [
        # "what counts as X" asks what X is (offered only before)
        ("what counts as context for a chatbot", "context"),
        ("what counts as one step in my training loop", "training-step"),
        ("what counts as latency for a streaming chat app", "latency"),
    ],
)
def test_what_counts_as_a_thing_asks_what_it_is(
    bundled_index: SearchIndex, query: str, card: str
) -> None:
    assert bundled_index.search(query).entry_id == card


def test_what_counts_as_a_part_is_no_card_for_the_whole(bundled_index: SearchIndex) -> None:
    """A layer "in a transformer" asks about the layer (a Transformers card before)."""
    assert (
        bundled_index.search("what counts as a layer in a transformer").entry_id != "transformers"
    )


@pytest.mark.parametrize(
    ("query", "card"),
    [
        # what the possessor owns is asked about (the possessor's card, or none, before)
        ("how does vllm's paged attention save memory", "paged-attention"),
        ("what does pytorch's autograd actually record", "automatic-differentiation"),
        ("is llama's tokenizer byte level", "tokenization"),
        ("how does my model's loss go negative", "loss"),
        # ... where it names an entry; else the possessor stays the subject
        ("why is vllm's throughput so high", "vllm"),
    ],
)
def test_what_a_possessor_owns_is_asked_about(
    bundled_index: SearchIndex, query: str, card: str
) -> None:
    assert bundled_index.search(query).entry_id == card


@pytest.mark.parametrize(
    ("clause", "asks"),
    [
        ("name", True),
        ("what s that called", True),
        ("is there a term for it", True),
        ("what do people call this", True),
        ("what is it for", False),
        ("name the best one", False),
    ],
)
def test_a_clause_that_asks_what_the_thing_is_called(clause: str, asks: bool) -> None:
    assert asks_for_name(clause) is asks


def test_a_described_thing_whose_name_is_asked_is_not_a_name_it_writes(
    bundled_index: SearchIndex,
) -> None:
    """The asker's verb ("train") describes; the name asked for is the description's (a
    Training card before the rule)."""
    query = "train a reward model on human rankings then optimize the policy against it, name?"
    assert bundled_index.search(query).entry_id == "rlhf"


def test_a_name_that_only_sets_the_question_earns_no_agreement() -> None:
    """A question asks about NAMED (the meaning does not rank it); OTHER, written too, leads
    the meaning but is only the setting ("can i train on tpus with pytorch"): no card for it,
    as there was before (meaning and names agreeing on it: 91)."""
    pool = Pool()
    pool.add(OTHER, MENTION_SCORE, "match-term")
    pool.add(NAMED, MENTION_SCORE - 4, "match-term")
    fuse(pool, [(OTHER, 0.55), (DESCRIBED, 0.48)], question=True, asked_about=(NAMED, 3))
    assert pool.best_score() < MATCH_SCORE


@pytest.mark.parametrize(
    ("query", "card"),
    [
        # the name the asker quotes is what is asked about (no card before the rule)
        ('what turns a plain script into an "agent"', "ai-agents"),
        # a quoted plain word in its everyday sense stays no card
        ('why does my coach keep saying "temperature" before games', None),
    ],
)
def test_a_quoted_name_is_the_subject(
    bundled_index: SearchIndex, query: str, card: str | None
) -> None:
    assert bundled_index.search(query).entry_id == card


@pytest.mark.parametrize(
    ("query", "card"),
    [
        # what a third party uses or needs is asked about (no card / Transformers before)
        ("why do most chat models use rope now", "rotary-position-embedding"),
        ("why do transformers use layer norm", "layer-norm"),
        ("why does everyone use adamw instead of plain adam", "adamw"),
        # ... an everyday doer's plain word stays no card
        ("why do bakers use a higher temperature for bread", None),
    ],
)
def test_what_a_doer_uses_is_asked_about(
    bundled_index: SearchIndex, query: str, card: str | None
) -> None:
    assert bundled_index.search(query).entry_id == card
