"""Probes for task context19: a message of two sentences, a context sentence that names one
entry and a question about another thing. context19_probes.tsv was written from the entry
titles and general knowledge before reading the search code or the entries it targets."""

from __future__ import annotations

from bot.search.index import _asked_clause_agreeing

from .probe_files import ProbeFile, no_card, not_the_written_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING = {
    # a Gguf card: the whole message's meaning agrees with the name the context writes
    "we export the model to gguf for llama.cpp. what does quantization do to quality?",
    # the name in the context (a SentencePiece / Top-p card); the question alone names nothing
    # (ctx24's `_asked_elsewhere`, measured and reverted, fixed the top_p one: semantic.md)
    "we switched our tokenizer to sentencepiece. why do some languages use way more tokens per word?",
}
# "we set top_p=0.9 in the config. how do i make runs reproducible?" passes since object65's
# `_object_name_offered` (Top-p, the object of "we set", offered)
PROBES = ProbeFile("context19_probes.tsv", STILL_FAILING)

test_a_question_after_context_gets_the_card_it_names = PROBES.test("card", expect=the_asked_card)
test_a_name_in_the_context_alone_gets_no_card = PROBES.test("not", expect=not_the_written_card)
test_everyday_context_and_question_get_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"card": 8, "not": 6, "none": 5})


class _Meaning:
    """A semantic stage that reads any vector as the same ranking (the clause's own meaning)."""

    def __init__(self, ranked: list[tuple[int, float]]) -> None:
        self.ranked = ranked

    def similar_to(self, vector: object, limit: int) -> list[tuple[int, float]]:
        return self.ranked[:limit]


CLAUSE = object()  # the clause's vector: the stand-in reads any as its ranking


WHOLE = [(3, 0.62), (7, 0.55), (9, 0.41)]


def test_the_question_alone_agreeing_lifts_the_first_entry() -> None:
    lifted = _asked_clause_agreeing(
        WHOLE, "how does a reranker sort chunks", _Meaning([(3, 0.8)]), CLAUSE
    )
    assert lifted == [(3, 0.8), (7, 0.55), (9, 0.41)]


def test_the_question_alone_preferring_another_entry_changes_nothing() -> None:
    other = _Meaning([(7, 0.9), (3, 0.5)])
    assert _asked_clause_agreeing(WHOLE, "how does a reranker sort chunks", other, CLAUSE) == WHOLE


def test_a_question_saying_nothing_of_its_own_is_not_read_alone() -> None:
    assert _asked_clause_agreeing(WHOLE, "what is that for", _Meaning([(3, 0.9)]), CLAUSE) == WHOLE


def test_the_question_alone_further_away_changes_nothing() -> None:
    assert (
        _asked_clause_agreeing(WHOLE, "how does a reranker sort", _Meaning([(3, 0.5)]), CLAUSE)
        == WHOLE
    )


def test_a_question_pointing_back_at_its_context_is_not_read_alone() -> None:
    pointing = "why do transformers need it"
    assert _asked_clause_agreeing(WHOLE, pointing, _Meaning([(3, 0.9)]), CLAUSE) == WHOLE
