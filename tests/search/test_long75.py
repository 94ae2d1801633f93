"""Task long75: a long message's short clause asking outright what a name is, anywhere in it
(`query.asked_outright`, `SearchIndex._asked_outright_carded`). long75_probes.tsv was written
before any search run on the branch: 27 long chat messages (238-1,910 characters). On main
c7914483 the search carded 1 of 23 on-topic probes (a hallucination question inside 246
characters) and none of the 13 whose question stands past the first 300 characters the search
reads; the Discord layer's read of a long message's end (`define._read_end`) added 4. With the
step: 23 of 23, the 4 about nothing in the glossary still no card (bench/results/semantic.md
"long75")."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex, SearchResult
from bot.search.index import MAX_QUERY, MAX_TEXT, OUTRIGHT_CHARS
from bot.search.query import OUTRIGHT_CLAUSES, asked_outright

from .probe_files import ProbeFile, no_card, the_asked_card

PROBES = ProbeFile("long75_probes.tsv")


def the_first_asked_card_the_second_beside_it(
    result: SearchResult, asked: str, written: str
) -> None:
    """Two questions: the first's card, the second offered first and a button on the card."""
    assert result.entry is not None, result
    assert result.entry.id == asked, result
    assert result.other_side == written, result
    assert [s.id for s in result.suggestions[:1]] == [written], result


test_a_question_ending_a_long_message_opens_its_card = PROBES.test("end", expect=the_asked_card)
test_a_question_in_the_middle_of_a_long_message_opens_its_card = PROBES.test(
    "middle", expect=the_asked_card
)
test_a_question_inside_chat_opens_its_card = PROBES.test("inside", expect=the_asked_card)
test_a_question_after_a_name_in_passing_opens_its_card = PROBES.test(
    "setting", expect=the_asked_card
)
test_two_questions_open_the_first_with_the_second_beside = PROBES.test(
    "two", expect=the_first_asked_card_the_second_beside_it
)
test_a_question_about_nothing_in_the_glossary_opens_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted(
    {"end": 7, "middle": 6, "inside": 4, "setting": 3, "two": 3, "none": 4}
)

CHAT = "so the migration finally finished last night after three retries and a lot of coffee. "


def test_a_clause_asks_outright_only_where_the_name_is_the_whole_rest_of_it() -> None:
    assert asked_outright("ok so, plainly: what is perplexity? thanks") == ["perplexity"]
    assert asked_outright("what's a system prompt, exactly?") == ["system prompt"]
    assert asked_outright("can someone tell me what beam search is?") == ["beam search"]
    assert asked_outright("what does rlhf stand for") == ["rlhf"]
    assert asked_outright("what means quantization in the models?") == ["quantization"]
    # markup `normalize` keeps before the question, and a question asked twice
    assert asked_outright("# what is rag?\n> anyway what is rag") == ["rag"]
    # the clause asks something else of the name, or knows it already
    assert asked_outright("what is rag doing in our pipeline") == ["rag doing in our pipeline"]
    assert asked_outright("i know what rag is, but do i need it") == []
    assert asked_outright("how does rag work") == []


def test_a_long_message_reads_its_clauses_only_so_far() -> None:
    asked = "what is rag? " * 2 + "what is gguf? "
    past = ", ".join(["nothing here"] * OUTRIGHT_CLAUSES) + ", what is lora?"
    assert asked_outright(asked + past) == ["rag", "gguf"]


def test_a_4000_character_message_s_last_question_opens_its_card(
    bundled_index: SearchIndex,
) -> None:
    said = (CHAT * 50)[: MAX_TEXT - 40] + " anyway, what is speculative decoding?"
    assert MAX_TEXT - 40 < len(said) <= MAX_TEXT
    result = bundled_index.search(said)
    assert result.entry is not None, result
    assert result.entry.id == "speculative-decoding", result


def test_three_questions_offer_each_in_the_order_asked(bundled_index: SearchIndex) -> None:
    said = CHAT * 4 + "what is gguf? and what is safetensors? also what is a kv cache?"
    result = bundled_index.search(said)
    assert result.entry is None, result
    assert [s.id for s in result.suggestions] == ["gguf", "safetensors", "kv-cache"], result


def test_the_asked_name_s_card_replaces_another_the_whole_text_opens(
    bundled_index: SearchIndex,
) -> None:
    said = CHAT * 2 + "what is a kv cache?"
    other = bundled_index.search("gguf")
    assert other.entry is not None
    result = bundled_index._asked_outright_carded(other, said, None)
    assert result.entry is not None, result
    assert result.entry.id == "kv-cache", result
    asked = bundled_index.search("kv cache")
    assert bundled_index._asked_outright_carded(asked, said, None) is asked


def test_a_short_text_is_left_to_the_rest_of_the_search(bundled_index: SearchIndex) -> None:
    said = "hi. what is a kv cache? ok"
    assert len(said) < OUTRIGHT_CHARS
    plain = SearchResult("none", None, None, 0.0, said, said)
    assert bundled_index._asked_outright_carded(plain, said, None) is plain


@pytest.mark.parametrize("start_only", [False, True])
def test_a_text_read_at_its_start_alone_looks_for_no_question_past_it(
    bundled_index: SearchIndex, start_only: bool
) -> None:
    said = CHAT * 4 + "anyway, what is rag?"
    assert len(said) > MAX_QUERY
    result = bundled_index.search(said, start_only=start_only)
    assert (result.entry is None) == start_only, result
    assert start_only or result.entry.id == "rag", result
