"""Probes for task passing37: a short question that writes one entry's name as a setting or
modifier ("in pytorch, what computes the gradients for me?") and asks about another; the name
written in passing is no card (issue #12). passing37_probes.tsv was written from entry titles
and general knowledge, not from the entries' text nor any slice's rows."""

from __future__ import annotations

from bot.search.query import in_passing, plainly_in_passing

from .probe_files import ProbeFile, the_asked_card, the_asked_card_or_first_offers


def the_passing_name_not_carded(result, asked: str, written: str) -> None:  # type: ignore[no-untyped-def]
    """No card for the name written in passing; the asked entry the card or among the first
    offers."""
    assert result.entry is None or result.entry.id != written, result
    the_asked_card_or_first_offers(result, asked, written)


# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
# The name is not written in a setting `in_passing` reads: "why do X need", "what does X use
# to" (X the subject of the verb, as in "why do transformers beat rnns").
# The meaning puts the written name first and no kind is asked: it stays the card (GGUF).
# ("in a vit, how is the picture cut into tokens?" carded Visual Encoder; since asked40 no card,
# Image Patch Token offered.)
# No name written, the asked entry not among the first three offers (Noise Schedule first).
# A name asked about outright, only offered: the description stage's, not this rule's.
STILL_FAILING = {
    "why do transformers need positional information at all?",
    "what does vllm use to stop gpu memory fragmenting?",
    "in gguf files, how are the weights shrunk to 4 bits?",
    "what does the u-net get told about the noise level at each step?",
}  # ("what's a gguf file?" passes since file56's `query.file_named`)
PROBES = ProbeFile("passing37_probes.tsv", STILL_FAILING)

test_a_name_in_passing_is_no_card = PROBES.test("passing", expect=the_passing_name_not_carded)
test_a_name_asked_keeps_its_card = PROBES.test("own", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"passing": 15, "own": 11})


def test_a_name_is_read_in_passing_where_it_sets_the_question() -> None:
    def passing(text: str, name: str) -> bool:
        start = text.index(name)
        return in_passing(text, start, start + len(name))

    assert passing("in pytorch what computes the gradients for me", "pytorch")
    assert passing("what s the thing in torch optim that changes the params", "torch")
    assert passing("those numbers right before softmax what are they called", "softmax")
    assert passing("cheaper than dpo which one", "dpo")
    assert passing("vllm's docs mention a draft model what does it do", "vllm")
    assert not passing("in pytorch how", "pytorch")  # the question says nothing else
    assert not passing("what is the judge in llm as a judge", "llm as a judge")
    assert not passing("what does the kv cache store", "kv cache")
    assert not passing("why do transformers beat rnns", "transformers")
    assert not passing("what goes in a model card on hugging face", "model card")


def test_a_name_is_plainly_in_passing_where_compared_against_or_before_a_kind() -> None:
    def plainly(text: str, name: str) -> bool:
        start = text.index(name)
        return plainly_in_passing(text, start, start + len(name))

    assert plainly("a method with no ref model cheaper than dpo which one", "dpo")
    assert plainly(
        "in a transformer block what s the part that comes after attention", "transformer block"
    )
    assert not plainly("in streaming llm inference why keep the first four tokens", "inference")
    assert not plainly("what is the critic in ppo", "ppo")
