"""Probes for task voice59 (issue #12, cause57's candidate (a)): a speaker's opening before the
question ("accountant here, ...", "chef, long one, sorry: ...", "nurse: ...") is words about
nothing asked. voice59_probes.tsv was written from the entry titles and general knowledge before
reading the chat-markup code, the tuning rows or the entries' text. The rule measured
(`query.without_speaker` at commit d4db4a29, run by `SearchIndex.search` after `plain_chat`: the
opening searched away where the rest asks, unless it writes a name or is a log's label) gained
19 right cards for 3 fewer wrong on the tuning slices but raised the held-out wrong share (4.31%
to 4.32%; test28 more): reverted (semantic.md, "voice59"). Its probes stay, the ones it passed
and main fails as strict expected failures. voice61's reading of the meaning without the opening
(`index._unvoiced_agreeing`) cards two of them ("farmer here, ...", "chef, long one, sorry: what's
it called ..."): out of the expected failures."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from bot.search import SearchIndex
from bot.search.asked import search_asked

from .probe_files import ProbeFile, no_card, the_asked_card, the_asked_card_or_first_offers

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
OPENED_FAILING: set[str] = {
    # the opening thins the meaning: no card, or another's (the cut carded these)
    "accountant here, what does it mean when a model hallucinates?",
    "nurse: what is retrieval augmented generation?",
    "lawyer here. what is differential privacy?",
    "👋 designer here, what is a diffusion model?",
    "non-native speaker, sorry for my english: what is chain of thought prompting?",
    "Doctor here: what is a system prompt?",
    # the bare question offers too (Next-Token Prediction first); the opening makes Prompt
    # Engineering's card (wrong)
    "retired nurse, total beginner, long one sorry: how does a chatbot decide which word comes"
    " next?",
}
# searched otherwise than the bare question (card or first three offers differ)
BARE_FAILING: set[str] = {
    *OPENED_FAILING,
    # carded since voice61's second reading of the meaning, its offers not the bare question's
    "chef, long one, sorry: what's it called when the model writes out its reasoning step by"
    " step before the answer?",
    "hi all, musician here - what is temperature when a chatbot writes lyrics?",
    "Accountant here, why does everyone say you need a gpu to run these models?",
    "Hi! Photographer here. What is a vision transformer?",
    "first post, be gentle: what is an ai agent?",
    "high school student here. what is softmax?",
    "accountant here, what's the thing where the model makes up facts that sound right?",
}
SUBJECT_FAILING: set[str] = {
    # no card and no offer ("docker:" writes a name)
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


def _opened() -> list[object]:
    """(query, opening) of the opened probes, the still failing ones marked."""
    fails = pytest.mark.xfail(strict=True, reason="still fails")
    with Path(__file__).with_name("voice59_probes.tsv").open(encoding="utf-8") as f:
        rows = [(r[1], r[3]) for r in csv.reader(f, delimiter="\t") if r[:1] == ["opened"]]
    return [pytest.param(*r, marks=fails) if r[0] in BARE_FAILING else r for r in rows]


@pytest.mark.parametrize(("query", "opening"), _opened())
def test_an_opened_question_is_searched_as_the_bare_one(
    bundled_index: SearchIndex, query: str, opening: str
) -> None:
    result, bare = bundled_index.search(query), bundled_index.search(query[len(opening) :])
    assert result.entry == bare.entry, (result, bare)
    assert [s.id for s in result.suggestions[:3]] == [s.id for s in bare.suggestions[:3]]


@pytest.mark.xfail(strict=True, reason="the cut was reverted")
def test_define_mentions_and_the_cli_read_the_opening_away(bundled_index: SearchIndex) -> None:
    # `search_asked` is how /define, a mention and `glossary-bot search` read a text: the cut
    # lived in `SearchIndex.search` under it; "mobile dev:" (dev20's voice) thins the meaning
    query = "mobile dev: what's the thing where the model makes up facts that sound right?"
    result = search_asked(bundled_index, query)
    the_asked_card(result, "hallucination", "")
    assert result.query == query  # the result keeps the text as typed
