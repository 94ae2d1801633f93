"""Entry names in their everyday sense (bot/search/everyday.py) against the bundled glossary.
Sentences written for this file (none from a relevance slice or everyday_probes.tsv)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bot.glossary import load_glossary
from bot.glossary.keys import normalize
from bot.search import SearchIndex
from bot.search.everyday import (
    NEAR_COSINE,
    WORDS_NEAR_COSINE,
    common_words,
    everyday_sense,
    everyday_words,
    in_capitals,
    is_common,
    judged,
)
from bot.search.local import compile_local, with_vectors
from bot.search.semantic.term_vectors import TermVectors

from .server_term_meanings import RAID_TAX, STANDUP_BINGO, TERMS


@pytest.mark.parametrize("name", ["checkpoint", "rubric", "sandbox", "swiss cheese", "token"])
def test_everyday_words_are_common(name: str) -> None:
    assert is_common(name)


@pytest.mark.parametrize("name", ["logits", "softmax", "overfitting", "swiglu", "layernorm"])
def test_jargon_is_not_common(name: str) -> None:
    assert not is_common(name)


def test_the_list_is_large_and_plain() -> None:
    words = common_words()
    assert len(words) > 40_000
    assert all(w.isalpha() and w == w.lower() for w in words)


EVERYDAY = "suggest"  # the entry offered, no card: the user may still mean it
# ... unless the text is far from the field as a whole: no entry at all, no "Did you mean"
# (task offtopic41, `SearchIndex._offered_off_field`)
NOTHING = "none"
FIELD = "match"


@pytest.mark.parametrize(
    ("query", "entry_id", "status"),
    [
        (
            "is it normal to see hallucinations after three nights without sleep on a night shift",
            "hallucination",
            NOTHING,
        ),
        (
            "which swiss cheese melts best for a grilled sandwich with ham",
            "swiss-cheese-model",
            EVERYDAY,
        ),
        ("how often should i save a checkpoint when training a big model", "checkpoint", FIELD),
        ("why is my validation loss going up after epoch three", "validation-loss", FIELD),
        ("what temperature do people use when sampling from an llm", "temperature", FIELD),
        ("how do i give my coding agent a sandbox so it cannot delete files", "sandbox", FIELD),
        ("what makes a good rubric for grading chatbot replies with an llm judge", "rubric", FIELD),
        ("how do i load a checkpoint in pytorch", "checkpoint", FIELD),
        ("what is a sandbox", "sandbox", FIELD),  # too few words left to judge
        ("what does alignment mean", "alignment", FIELD),
        ("checkpoint", "checkpoint", FIELD),
        ("checkpiont", "checkpoint", FIELD),
        ("rubrics", "rubric", FIELD),
        # the rest's words: common English the glossary never uses ("spy", "thrillers",
        # "berlin", "vacation"; "paladin", "dungeons", "dragons", "chaotic")
        (
            "which spy thrillers about sleeper agents in berlin should i read on vacation",
            "sleeper-agents",
            EVERYDAY,
        ),
        (
            "what is the alignment of a paladin in dungeons and dragons, can they be chaotic",
            "alignment",
            NOTHING,
        ),
        (
            "how do sleeper agents survive safety training in that anthropic paper",
            "sleeper-agents",
            FIELD,
        ),
        ("does attention cost grow quadratically with sequence length", "attention", FIELD),
        ("what throughput can i expect from vllm on one a100", "throughput", FIELD),
        # ML questions set in an everyday scene: the words say everyday, the rest's meaning
        # does not ("serve a chatbot", "the bot writes", "keeps the bot polite")
        pytest.param(
            "what throughput do i need to serve a chatbot for a pizza shop on friday nights",
            "throughput",
            FIELD,
            # wrong49's `_asked_name_offered`: 16 words, the meaning puts LLM Evaluation 0.12
            # ahead of Throughput, offered second (its cost, bench/results/semantic.md)
            marks=pytest.mark.xfail(strict=True, reason="offered second since wrong49"),
        ),
        (
            "what temperature should i use so the bot writes funny birthday poems for my grandma",
            "temperature",
            FIELD,
        ),
        (
            "which alignment method keeps the bot polite to angry hotel guests",
            "alignment",
            FIELD,
        ),
        # "parsing", "trailing", "comma" are no glossary words, but JSON is an acronym
        ("why does my json output have a trailing comma and break parsing", "json", FIELD),
        # an acronym in lower case or jargon beside two everyday words, the rest far from the
        # field: another field's sense ("sister", "anime", "girls")
        (
            "my sister keeps calling anime girls moe, what does it mean",
            "mixture-of-experts",
            EVERYDAY,
        ),
        ("mse loss for predicting pizza delivery times, ok?", "mse", FIELD),
        ("best tts voice for reading bedtime stories to my kids", "text-to-speech", FIELD),
        ("how does ppo teach an agent to play mario kart", "proximal-policy-optimization", FIELD),
        ("my model hallucinates citations", "hallucination", FIELD),
        # "company", "public", "market", "stock": words at most two entries use in passing
        (
            "what does ipo mean when a company goes public on the stock market",
            "identity-preference-optimization",
            EVERYDAY,
        ),
        (
            "is an hmo or a ppo plan cheaper for a family of four",
            "proximal-policy-optimization",
            EVERYDAY,
        ),
        # written in capitals, an acronym is meant as the glossary's
        ("what does MoE mean in anime lol", "mixture-of-experts", FIELD),
    ],
)
def test_everyday_senses_get_an_offer_and_the_field_keeps_its_cards(
    bundled_index: SearchIndex, query: str, entry_id: str, status: str
) -> None:
    result = bundled_index.search(query)
    assert result.status == status
    if status == NOTHING:
        assert result.entry is None, result
        assert not result.suggestions, result
        return
    shown = result.entry.id if result.entry else result.suggestions[0].id
    assert shown == entry_id
    assert (result.entry is None) == (status == EVERYDAY)


def test_the_glossarys_own_words(bundled_index: SearchIndex) -> None:
    knows = bundled_index.glossary_word
    assert all(map(knows, ["training", "trains", "tokens"]))
    assert not any(map(knows, ["cheddar", "paladin"]))


def test_a_word_one_or_two_entries_use_is_not_the_fields(bundled_index: SearchIndex) -> None:
    fulltext = bundled_index.fulltext
    assert fulltext.documents_using("highway") == 1  # the residual stream's, in passing
    assert not bundled_index.glossary_word("highway")
    assert bundled_index.glossary_word("training")


def _knows(*words: str) -> Callable[[str], bool]:
    return frozenset(words).__contains__


@pytest.mark.parametrize(
    ("words", "known", "everyday"),
    [
        (["cold", "war", "spy", "novels"], (), True),
        (["kid", "unfair", "school"], ("school",), True),  # two of three
        (["bakery", "oven", "model", "training"], ("model", "training"), False),  # a tie
        (["ring", "networks"], ("networks",), False),  # one everyday word is not enough
        (["bakery", "oven", "pgvector", "qdrant"], (), False),  # jargon counts against
        (["bakery", "oven", "24gb", "70b"], (), False),  # so do words with digits
    ],
)
def test_everyday_words_outnumber_the_rest(
    words: list[str], known: tuple[str, ...], everyday: bool
) -> None:
    assert everyday_words(words, _knows(*known)) is everyday


def test_names_in_capitals_are_acronyms() -> None:
    entries = {e.id: e for e in load_glossary()}
    assert in_capitals(entries["json"], "json")
    assert not in_capitals(entries["checkpoint"], "checkpoint")


def _span(text: str, name: str) -> tuple[str, int, int]:
    text = normalize(text)
    start = text.index(name)
    return text, start, start + len(name)


def _everyday(
    index: SearchIndex, span: tuple[str, int, int], nearest: float, *, alone: bool = True
) -> bool:
    """`everyday_sense` as the search asks it, of a sentence `judged` (a short text's own rule
    is tests/search/test_everyday4.py's)."""
    assert index.semantic is not None
    knows = index.glossary_word
    unused = index.unused_word
    judgement = judged(span[0], nearest, knows, unused)
    assert judgement is not None
    return everyday_sense(
        index.semantic, knows, *span, nearest, judgement, alone=alone, unused=unused
    )


def test_the_rest_of_the_sentence_decides(bundled_index: SearchIndex) -> None:
    far = _span("which swiss cheese melts best for a grilled sandwich with ham", "swiss cheese")
    near = _span("why does the swiss cheese model need several independent layers", "swiss cheese")
    assert _everyday(bundled_index, far, 0.0)
    assert not _everyday(bundled_index, near, 0.0)


SPY = "which spy thrillers about sleeper agents in berlin should i read on vacation"


def test_the_words_are_read_up_to_their_own_cosine(bundled_index: SearchIndex) -> None:
    """Between NEAR_COSINE and WORDS_NEAR_COSINE only sentences the words pick are judged."""
    knows = bundled_index.glossary_word
    between = (NEAR_COSINE + WORDS_NEAR_COSINE) / 2
    text = normalize(SPY)
    assert judged(text, between, knows, bundled_index.unused_word) == "sentence"
    assert _everyday(bundled_index, _span(SPY, "sleeper agents"), between)
    assert not judged(text, WORDS_NEAR_COSINE, knows, bundled_index.unused_word)


def test_another_entry_named_keeps_the_words_from_deciding(bundled_index: SearchIndex) -> None:
    between = (NEAR_COSINE + WORDS_NEAR_COSINE) / 2
    span = _span(SPY, "sleeper agents")
    assert not _everyday(bundled_index, span, between, alone=False)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("what is a checkpoint", "checkpoint"),  # one word of its own left: nothing to judge
        ("how do i scale the logits before training", "logits"),  # jargon, no everyday words
    ],
)
def test_what_is_not_judged(bundled_index: SearchIndex, text: str, name: str) -> None:
    assert not _everyday(bundled_index, _span(text, name), 0.0)


def test_jargon_is_judged_alone_beside_everyday_words(bundled_index: SearchIndex) -> None:
    span = _span("my cat knocked the logits off the shelf at grandma's farm", "logits")
    assert _everyday(bundled_index, span, 0.0)
    assert not _everyday(bundled_index, span, 0.0, alone=False)


def test_a_sentence_near_an_entry_is_not_judged(bundled_index: SearchIndex) -> None:
    far = normalize("which swiss cheese melts best for a grilled sandwich with ham")
    assert (
        judged(far, WORDS_NEAR_COSINE, bundled_index.glossary_word, bundled_index.unused_word)
        is None
    )


def test_a_short_text_near_an_entry_is_judged_by_its_own_rule(bundled_index: SearchIndex) -> None:
    """Whatever its cosine, a name and a word or two, one of them everyday, is judged, but only
    by the short rule: `everyday_sense` skips the rules for longer rests."""
    knows, unused = bundled_index.glossary_word, bundled_index.unused_word
    assert judged("checkpoint in zelda", 0.9, knows, unused) == "short"
    assert judged("checkpoint in zelda", 0.0, knows, unused) == "sentence"
    # a question, only if it ends with the field it asks in
    assert judged("what is a checkpoint in zelda", 0.9, knows, unused) == "short"
    assert judged("why is my checkpoint so big", 0.9, knows, unused) is None
    assert judged("what is a checkpoint in training", 0.9, knows, unused) is None


@pytest.mark.parametrize(
    ("query", "term_id"),
    [
        ("how much raid tax do we pay after the dungeon run on friday", RAID_TAX.id),
        ("who won standup bingo at the morning meeting yesterday", STANDUP_BINGO.id),
    ],
)
def test_a_servers_own_term_in_its_own_sense_keeps_its_card(
    bundled_index: SearchIndex, tmp_path: Path, query: str, term_id: str
) -> None:
    """A server's term is about the server's field, not ours: its own vectors, beside the
    bundled ones, put the rest of such a sentence near it."""
    assert bundled_index.semantic is not None
    vectors = TermVectors(bundled_index.semantic.encoder, tmp_path)
    local = compile_local(load_glossary(), bundled_index, TERMS, {}, vectors=vectors)
    vectors.embed([text for _, text in local.texts])
    result = with_vectors(local, vectors).index.search(query)
    assert result.entry is not None
    assert result.entry.id == term_id
