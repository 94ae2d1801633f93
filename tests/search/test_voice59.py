"""Probes for task voice59 (issue #12, cause57's candidate (a)): a speaker's opening before the
question ("accountant here, ...", "chef, long one, sorry: ...", "nurse: ...") is words about
nothing asked. voice59_probes.tsv was written from the entry titles and general knowledge before
reading the chat-markup code, the tuning rows or the entries' text. The rule:
`query.without_speaker`, run by `SearchIndex.search` after `plain_chat` (so /define, mentions
and `glossary-bot search` alike): the opening searched away where the rest asks, unless it writes
a name ("kv cache: why ...") or is a log's label ("RuntimeError:", "WARNING:")."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from bot.search import SearchIndex
from bot.search.asked import search_asked
from bot.search.query import without_speaker

from .probe_files import ProbeFile, no_card, the_asked_card, the_asked_card_or_first_offers

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
OPENED_FAILING: set[str] = {
    # searched as the bare question is, which offers (CPU first, GPU third; Next-Token
    # Prediction first): the opening had carded GPU, and Prompt Engineering (wrong)
    "Accountant here, why does everyone say you need a gpu to run these models?",
    "retired nurse, total beginner, long one sorry: how does a chatbot decide which word comes"
    " next?",
}
SUBJECT_FAILING: set[str] = {
    # no card and no offer, with the cut or without ("docker:" writes a name: kept)
    "docker: permission denied while trying to connect to the docker daemon socket, what do i do?",
}
NONE_FAILING: set[str] = set()
OPENED = ProbeFile("voice59_probes.tsv", OPENED_FAILING)
SUBJECT = ProbeFile("voice59_probes.tsv", SUBJECT_FAILING)
NONE = ProbeFile("voice59_probes.tsv", NONE_FAILING)

test_an_opened_question_gets_the_asked_card = OPENED.test("opened", expect=the_asked_card)
test_a_subject_label_stays_and_is_answered = SUBJECT.test(
    "subject", expect=the_asked_card_or_first_offers
)
test_an_off_topic_text_with_an_opening_gets_no_card = NONE.test("none", expect=no_card)
test_the_probes_are_the_ones_written = OPENED.counted({"opened": 37, "subject": 12, "none": 11})


def _opened() -> list[tuple[str, str]]:
    """(query, opening) of the opened probes."""
    with Path(__file__).with_name("voice59_probes.tsv").open(encoding="utf-8") as f:
        return [(row[1], row[3]) for row in csv.reader(f, delimiter="\t") if row[:1] == ["opened"]]


@pytest.mark.parametrize(("query", "opening"), _opened())
def test_an_opened_question_is_searched_as_the_bare_one(
    bundled_index: SearchIndex, query: str, opening: str
) -> None:
    result, bare = bundled_index.search(query), bundled_index.search(query[len(opening) :])
    assert result.entry == bare.entry, (result, bare)
    assert [s.id for s in result.suggestions[:3]] == [s.id for s in bare.suggestions[:3]]


NAMES = {"kv cache", "attention", "docker"}


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("accountant here, what is a kv cache?", "what is a kv cache?"),
        ("Chef, long one, sorry: why does my bot forget things?", "why does my bot forget things?"),
        ("PM here - how does it pick a model?", "how does it pick a model?"),
        ("barista here, long story short: what is attention?", "what is attention?"),
        # the subject, a log's label or level, a mixed-case word: kept
        ("kv cache: why does it grow?", "kv cache: why does it grow?"),
        ("attention: why softmax of the scores?", "attention: why softmax of the scores?"),
        ("RuntimeError: CUDA out of memory, why?", "RuntimeError: CUDA out of memory, why?"),
        ("WARNING: cache is full, what is evicted?", "WARNING: cache is full, what is evicted?"),
        ("TLA+ homework: which kind of property?", "TLA+ homework: which kind of property?"),
        # the rest asks nothing, or too little
        ("nurse: the model makes things up", "nurse: the model makes things up"),
        ("nurse: why?", "nurse: why?"),
    ],
)
def test_the_opening_cut(text: str, kept: str) -> None:
    assert without_speaker(text, NAMES.__contains__) == kept


def test_define_mentions_and_the_cli_read_the_opening_away(bundled_index: SearchIndex) -> None:
    # `search_asked` is how /define, a mention and `glossary-bot search` read a text: the cut
    # lives in `SearchIndex.search` under it; "mobile dev:" (dev20's voice) is Hallucination's card
    query = "mobile dev: what's the thing where the model makes up facts that sound right?"
    result = search_asked(bundled_index, query)
    the_asked_card(result, "hallucination", "")
    assert result.query == query  # the result keeps the text as typed
