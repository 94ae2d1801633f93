"""Probes for task which62 (issue #12, first61's "left"): a "which <kind>" question over a list
cards the kind's entry with the listed entries offered; a list of commas alone ("adam, sgd,
rmsprop") reads as first61's lists do (the first listed carded, the rest offered); a list of
examples in a description, or names listed as a question's setting, keep their card.
which62_probes.tsv was written from entry titles and general knowledge, before reading the search
code, the entries' text or any tuning row."""

from __future__ import annotations

from bot.search import SearchResult

from .probe_files import ProbeFile, no_card


def the_kind_carded_a_listed_offered(result: SearchResult, asked: str, written: str) -> None:
    """The kind's card ("a|b": either), the first listed entry ("-": none) among the offers."""
    assert result.entry is not None, result
    assert result.entry.id in asked.split("|"), result
    if written != "-":
        assert written in {s.id for s in result.suggestions}, result


def a_listed_card_or_none(result: SearchResult, asked: str, written: str) -> None:
    """No card, or one of the listed entries' ("a|b|c")."""
    assert result.entry is None or result.entry.id in asked.split("|"), result


def the_first_carded_the_next_offered(result: SearchResult, asked: str, written: str) -> None:
    """The first listed entry's card, the next listed entry among the offers."""
    assert result.entry is not None, result
    assert result.entry.id in asked.split("|"), result
    assert written in {s.id for s in result.suggestions}, result


def the_asked_card_or_none(result: SearchResult, asked: str, written: str) -> None:
    """The thing described or asked about ("a|b": either), or no card; never a listed one's."""
    assert result.entry is None or result.entry.id in asked.split("|"), result


# Probes that fail on this branch: strict expected failures, so one that starts passing fails the
# suite and is moved out of here.
STILL_FAILING: set[str] = set()
PROBES = ProbeFile("which62_probes.tsv", STILL_FAILING)

test_which_kind_cards_the_kind = PROBES.test("kind", expect=the_kind_carded_a_listed_offered)
test_which_without_a_kind_cards_a_listed_one_or_none = PROBES.test(
    "whichnone", "hostile", expect=a_listed_card_or_none
)
test_a_comma_list_cards_its_first = PROBES.test("comma", expect=the_first_carded_the_next_offered)
test_a_described_or_set_list_keeps_its_card = PROBES.test(
    "desc", "setting", expect=the_asked_card_or_none
)
test_an_everyday_comma_list_gets_no_card = PROBES.test("offtopic", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted(
    {"kind": 18, "whichnone": 6, "comma": 17, "desc": 6, "setting": 6, "offtopic": 4, "hostile": 2}
)
