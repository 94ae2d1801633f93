"""The probe files that the search tasks write before reading the code (wrong14_probes.tsv ...
everyday18_probes.tsv): tab-separated, one row per probe, its kind first, then the query, the
entry asked about and the entry written (or a note). Each task's test file builds its tests from
one here: a test per kind, parametrised over its rows, with the expectation that kind states."""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Callable, Collection, Mapping
from pathlib import Path

import pytest

from bot.search import SearchIndex, SearchResult

# What a probe's search must give: (result, entry asked about, entry written) -> asserts
Expect = Callable[[SearchResult, str, str], None]


def the_asked_card(result: SearchResult, asked: str, written: str) -> None:
    assert result.entry is not None, result
    assert result.entry.id == asked, result


def the_asked_card_or_first_offers(result: SearchResult, asked: str, written: str) -> None:
    """Its card, or no card and it among the first three offers (an offer is no wrong card)."""
    shown = [result.entry.id] if result.entry else [s.id for s in result.suggestions[:3]]
    assert asked in shown, result


def the_asked_first_offer_the_written_behind(
    result: SearchResult, asked: str, written: str
) -> None:
    """No card; the asked entry offered first, the written name among the offers too."""
    assert result.entry is None, result
    offered = [s.id for s in result.suggestions]
    assert offered[:1] == [asked], result
    assert written in offered, result


def no_card(result: SearchResult, asked: str, written: str) -> None:
    assert result.entry is None, result


def neither_card_nor_offer(result: SearchResult, asked: str, written: str) -> None:
    assert result.entry is None, result
    assert not result.suggestions, result


def no_card_but_the_asked(result: SearchResult, asked: str, written: str) -> None:
    assert result.entry is None or result.entry.id == asked, result


def not_the_asked_card(result: SearchResult, asked: str, written: str) -> None:
    assert result.entry is None or result.entry.id != asked, result


def not_the_written_card(result: SearchResult, asked: str, written: str) -> None:
    assert result.entry is None or result.entry.id != written, result


class ProbeFile:
    """One probe file beside this module, and the probes that still fail on its branch: strict
    expected failures, so one that starts passing fails the suite and is moved out of the set."""

    def __init__(self, name: str, still_failing: Collection[str] = ()) -> None:
        self.path = Path(__file__).with_name(name)
        self.still_failing = still_failing

    def params(self, *kinds: str) -> list[object]:
        """The rows of these kinds, in the file's order within each kind, as (query, asked,
        written); the still failing ones marked."""
        fails = pytest.mark.xfail(strict=True, reason="still fails")
        rows = self._rows()
        cases = [tuple(row[1:4]) for kind in kinds for row in rows if row[0] == kind]
        return [pytest.param(*c, marks=fails) if c[0] in self.still_failing else c for c in cases]

    def test(self, *kinds: str, expect: Expect) -> Callable[..., None]:
        """A test of each probe of these kinds: its search meets `expect`."""

        @pytest.mark.parametrize(("query", "asked", "written"), self.params(*kinds))
        def test(bundled_index: SearchIndex, query: str, asked: str, written: str) -> None:
            expect(bundled_index.search(query), asked, written)

        return test

    def counted(self, counts: Mapping[str, int]) -> Callable[[], None]:
        """A test that the file holds as many probes of each kind as the task wrote, so a row
        lost or mislabelled in an edit is noticed."""

        def test() -> None:
            kinds = Counter(row[0] for row in self._rows())
            assert {kind: kinds[kind] for kind in counts} == dict(counts)

        return test

    def _rows(self) -> list[list[str]]:
        with self.path.open(encoding="utf-8") as f:
            return [row for row in csv.reader(f, delimiter="\t") if row]
