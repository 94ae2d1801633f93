"""Probes for questions that write two names (task wrong16, issue #12): one only the setting
("what is the kv cache in vllm", "how does vllm do paged attention"), or two related names with
one asked about. wrong16_probes.tsv was written from the entry titles and general knowledge
before reading the search code, the entries or the relevance rows; the rule they measured,
`names_tied` narrowed twice (semantic.md), is tested below with queries written for this file."""

from __future__ import annotations

from typing import Any

import pytest

from bot.search import SearchIndex
from bot.search import index as index_module
from bot.search.fusion import SLOPE, SUBJECT, names_tied
from bot.search.ranking import MATCH_MARGIN
from bot.search.terms import Found, find_mentions

from .probe_files import ProbeFile, no_card_but_the_asked, the_asked_card

# Probes that fail on this branch, all of which failed on main too: strict expected failures,
# so one that starts passing fails the suite and is moved out of here.
# ("what is a safetensors file on the hugging face hub" passes since file56's `query.file_named`:
# the name before "file" is looked up outright.)
STILL_FAILING: set[str] = set()
PROBES = ProbeFile("wrong16_probes.tsv", STILL_FAILING)

test_the_setting_written_gets_no_card = PROBES.test("setting", expect=no_card_but_the_asked)
test_the_related_name_asked_about_gets_its_card = PROBES.test("related", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"setting": 22, "related": 12})


CARD, OTHER = 0, 1
CLEAR = MATCH_MARGIN / SLOPE  # a clear lead in cosine


@pytest.mark.parametrize(
    ("written", "similar", "tied"),
    [
        # two names, the meaning barely ahead on the card: nothing says which is asked
        ([(CARD, SUBJECT), (OTHER, 3)], [(CARD, 0.60), (OTHER, 0.60 - CLEAR + 0.01)], True),
        # ... or behind it
        ([(CARD, SUBJECT), (OTHER, 3)], [(OTHER, 0.62), (CARD, 0.42)], True),
        # a clear lead: the card stands
        ([(CARD, SUBJECT), (OTHER, 3)], [(CARD, 0.60), (OTHER, 0.60 - CLEAR - 0.01)], False),
        # the other name only says where (rank 0): no rival
        ([(CARD, SUBJECT), (OTHER, 0)], [(OTHER, 0.66), (CARD, 0.56)], False),
        # the card is no name written, or the meaning ranks neither
        ([(OTHER, 3)], [(CARD, 0.60), (OTHER, 0.60)], False),
        ([(CARD, SUBJECT), (OTHER, 3)], [], False),
    ],
)
def test_two_names_the_meaning_barely_tells_apart(
    written: list[tuple[int, int]], similar: list[tuple[int, float]], tied: bool
) -> None:
    assert names_tied(CARD, written, similar) is tied


def test_two_names_neither_asked_about_are_both_offered(bundled_index: SearchIndex) -> None:
    result = bundled_index.search("how do i write a system prompt that stops a jailbreak")
    assert result.status == "suggest", result
    assert {s.id for s in result.suggestions[:2]} == {"system-prompt", "jailbreak"}


def test_a_long_name_written_as_the_setting_is_no_rival(bundled_index: SearchIndex) -> None:
    # "in deepseek" says where; the meaning preferring DeepSeek does not make it a rival name
    result = bundled_index.search("what does mixture of experts mean in deepseek")
    assert result.entry is not None, result
    assert result.entry.id == "mixture-of-experts"


def test_a_search_reads_the_names_of_each_text_once(
    bundled_index: SearchIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the names written (`_add_mentions`) and the tie of two of them (`_tied_offered`) read the
    # same text: its names are found once a search, not once a rule
    texts: list[str] = []

    def counted(text: str, *args: Any, **kwargs: Any) -> list[Found]:
        texts.append(text)
        return find_mentions(text, *args, **kwargs)

    monkeypatch.setattr(index_module, "find_mentions", counted)
    result = bundled_index.search("how do i write a system prompt that stops a jailbreak")
    assert result.status == "suggest", result  # tied: both rules ran
    assert texts
    assert len(texts) == len(set(texts)), texts
