"""Probes for task offtopic41: off-topic texts offered a "Did you mean" (issue #12). "nothing": a
near-field off-topic text (cloud, web, crypto, programming, data engineering, statistics, everyday
chat, AI-ish words in other senses): neither card nor offer, since an offer for nonsense is a worse
answer than an honest "no entry". "offer": a loose description of an entry without its name: its
card, or no card and it among the first three offers. offtopic41_probes.tsv was written from entry
titles and general knowledge, not from the entries' text nor any slice's rows."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex

from .probe_files import ProbeFile, neither_card_nor_offer, the_asked_card_or_first_offers

# Probes that fail on this branch and on main 153a47c alike: strict expected failures, so one that
# starts passing fails the suite and is moved out of here. Each writes a word that is an entry's
# acronym in the glossary ("react": ReAct, "api": API), and a name only the field writes keeps
# its offer (`SearchIndex._offered_off_field`).
STILL_FAILING = {
    "why does my react component render twice in strict mode",
    "how do i fix a cors error when calling my api from localhost",
}
PROBES = ProbeFile("offtopic41_probes.tsv", STILL_FAILING)


test_a_near_field_text_gets_neither_card_nor_offer = PROBES.test(
    "nothing", expect=neither_card_nor_offer
)
test_a_loose_description_is_its_card_or_offered = PROBES.test(
    "offer", expect=the_asked_card_or_first_offers
)
test_the_probes_are_the_ones_written = PROBES.counted({"nothing": 15, "offer": 11})


# Written after the tuning rows and the code were read (paraphrases of their kind, copied from no
# slice). Plain words in their everyday sense, far from the field: main 153a47c offered the entry
# the word names (Temperature, Attention); "none" now.
@pytest.mark.parametrize(
    "query",
    [
        "whats the best temperature for brewing green tea",
        "how do i get my toddler to pay attention at dinner",
    ],
)
def test_a_plain_word_in_an_everyday_sentence_is_offered_nothing(
    bundled_index: SearchIndex, query: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is None, result
    assert not result.suggestions, result


# A name only the field writes (an acronym, a coinage) keeps its offer however plain the rest.
def test_an_acronym_written_in_a_plain_sentence_keeps_its_offer(
    bundled_index: SearchIndex,
) -> None:
    result = bundled_index.search("my lora looks burnt when i set the strength to 1")
    assert result.entry is None, result
    assert [s.id for s in result.suggestions[:1]] == ["lora-qlora"], result


# Two names compared, far from the field as a whole, are left to `search`, which cards the first
# side (without that exemption both lost their card: "none").
@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("temperature or top p, which one i should touch for more creative", "temperature"),
        ("top p or temperature, which one i should change for more creative", "top-p"),
    ],
)
def test_two_names_compared_keep_the_first_sides_card(
    bundled_index: SearchIndex, query: str, first: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None, result
    assert result.entry.id == first, result
