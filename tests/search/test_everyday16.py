"""Probes for everyday senses still carded, jargon still only offered, and server terms in
scripts written without spaces (task everyday16): everyday16_probes.tsv, written from the entry
titles and general knowledge before reading the search code or the entries."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that still fail on this branch (all of these failed on main 3534f81): strict expected failures, so one that starts passing
# fails the suite and is moved out of here.
STILL_FAILING = {
    "rubric for a book report",
    "how many neurons in the human brain",
}
# "grading rubric for a 5th grade science fair project" passes since everyday62 (the rest is
# nearer an everyday setting, physics and chemistry at 0.36, than to every entry: 0.27)
PROBES = ProbeFile("everyday16_probes.tsv", STILL_FAILING)

test_an_everyday_sense_gets_no_card = PROBES.test("everyday", expect=no_card)
test_the_entry_asked_about_gets_its_card = PROBES.test("real", "jargon", expect=the_asked_card)


def named(index: SearchIndex, text: str, alias: str, entry: str) -> list[str]:
    return [m.entry_id for m in index.find_named_terms(text, {alias: entry})]


@pytest.mark.parametrize(("text", "alias", "entry"), PROBES.params("term-link"))
def test_a_server_term_standing_as_a_word_is_linked(
    bundled_index: SearchIndex, text: str, alias: str, entry: str
) -> None:
    assert entry in named(bundled_index, text, alias, entry)


@pytest.mark.parametrize(("text", "alias", "entry"), PROBES.params("term-none"))
def test_a_server_term_inside_a_longer_word_is_not_linked(
    bundled_index: SearchIndex, text: str, alias: str, entry: str
) -> None:
    assert entry not in named(bundled_index, text, alias, entry)


test_the_probes_are_the_ones_written = PROBES.counted(
    {"term-link": 5, "term-none": 5, "everyday": 16, "real": 12, "jargon": 9}
)


@pytest.mark.parametrize(
    "query", ["the border checkpoint wont let us cross", "why won't my llama eat its hay"]
)
def test_a_negative_contraction_is_no_evidence_either_way(
    bundled_index: SearchIndex, query: str
) -> None:
    # "won't" is read as no word, neither the field's nor an everyday one ("won")
    assert bundled_index.search(query).entry is None


@pytest.mark.parametrize(
    "query",
    [
        "rope, my dog chews it",  # set apart and pointed back at, but an everyday sense
        "sandbox, my kids love it",
        "pytorch on amd gpus with rocm, does it work yet",  # not all of it a name: both asked
    ],
)
def test_a_name_set_apart_is_no_card_by_that_alone(bundled_index: SearchIndex, query: str) -> None:
    result = bundled_index.search(query)
    assert result.entry is None or result.entry.id == "rocm", result


@pytest.mark.parametrize(
    ("query", "entry"),
    [
        ("the swiss cheese approach to llm guardrails", "swiss-cheese-model"),
        ("why are layered defences called the swiss cheese model", "swiss-cheese-model"),
    ],
)
def test_a_title_start_beside_the_field_keeps_its_card(
    bundled_index: SearchIndex, query: str, entry: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None, result
    assert result.entry.id == entry, result


def test_a_title_start_beside_everyday_words_only_is_offered(bundled_index: SearchIndex) -> None:
    # "swiss cheese" is what Swiss Cheese Model is named after; "holes" says nothing of the field
    result = bundled_index.search("why does swiss cheese have holes")
    assert result.entry is None
    assert result.suggestions[0].id == "swiss-cheese-model"
