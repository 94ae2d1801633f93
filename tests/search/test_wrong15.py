"""Two names a question writes that nothing tells apart (task wrong15, issue #12), and the
probes written for a broad name asked about a narrower neighbour (wrong15_probes.tsv, written
from the entry titles and general knowledge before reading the search code or the entries)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from bot.search import SearchIndex
from bot.search.fusion import MATCH_MARGIN, SLOPE, names_tied

PROBES = Path(__file__).with_name("wrong15_probes.tsv")
CARD, OTHER, THIRD = 1, 2, 3
CLEAR = MATCH_MARGIN / SLOPE

# Probes that fail on this branch, all of which failed on main too: strict expected failures,
# so one that starts passing fails the suite and is moved out of here.
STILL_FAILING = {
    "how does a token get split into pieces by the tokenizer before the model sees text",
    "how many steps are there in one epoch given the batch size",
    "how does fine-tuning only train a small number of extra parameters while freezing the rest",
    "how does sampling pick only from the smallest set of tokens whose probabilities add up to p",
    "how does sampling keep just the k most likely tokens",
}


def probes(kind: str) -> list:
    """The probe rows of one kind as (query, asked, written), failing ones marked."""
    fails = pytest.mark.xfail(strict=True, reason="still fails")
    rows = []
    with PROBES.open(encoding="utf-8") as f:
        for row in csv.reader(f, delimiter="\t"):
            if not row or row[0].startswith("#") or row[0] != kind:
                continue
            case = tuple(row[1:4])
            rows.append(pytest.param(*case, marks=fails) if case[0] in STILL_FAILING else case)
    return rows


@pytest.mark.parametrize(("query", "asked", "written"), probes("narrow"))
def test_a_broad_name_written_gets_no_card(
    bundled_index: SearchIndex, query: str, asked: str, written: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is None or result.entry.id != written, result


@pytest.mark.parametrize(("query", "asked", "written"), probes("real"))
def test_a_name_asked_about_keeps_its_card(
    bundled_index: SearchIndex, query: str, asked: str, written: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None, result
    assert result.entry.id == asked, result


def test_the_probes_are_the_ones_written() -> None:
    with PROBES.open(encoding="utf-8") as f:
        kinds = [row[0] for row in csv.reader(f, delimiter="\t") if row]
    assert kinds.count("narrow") == 20
    assert kinds.count("real") == 12


def test_two_names_the_meaning_barely_tells_apart_are_tied() -> None:
    similar = [(CARD, 0.58), (OTHER, 0.58 - CLEAR + 0.01), (THIRD, 0.3)]
    assert names_tied(CARD, [(OTHER, 1), (CARD, 1)], similar)


@pytest.mark.parametrize(
    ("written", "similar"),
    [
        # a clear lead in meaning
        ([(CARD, 1), (OTHER, 1)], [(CARD, 0.58), (OTHER, 0.58 - CLEAR - 0.01)]),
        # the other name only says where the question is
        ([(CARD, 1), (OTHER, 0)], [(CARD, 0.58), (OTHER, 0.57)]),
        # one name written: nothing to tie with
        ([(CARD, 1)], [(CARD, 0.58), (OTHER, 0.57)]),
        # the card is no name written
        ([(OTHER, 1), (THIRD, 1)], [(CARD, 0.58), (OTHER, 0.57), (THIRD, 0.56)]),
        # the meaning does not rank the other name
        ([(CARD, 1), (OTHER, 1)], [(CARD, 0.58), (THIRD, 0.57)]),
    ],
)
def test_no_tie(written: list[tuple[int, int]], similar: list[tuple[int, float]]) -> None:
    assert not names_tied(CARD, written, similar)


def test_a_question_naming_two_entries_the_meaning_ties_gets_both_offered(
    bundled_index: SearchIndex,
) -> None:
    result = bundled_index.search("how often should i save a chekpoint in training?? every epoch??")
    assert result.entry is None, result
    assert {"epoch", "checkpoint"} <= {s.id for s in result.suggestions[:3]}


def test_a_clear_lead_between_two_names_keeps_its_card(bundled_index: SearchIndex) -> None:
    result = bundled_index.search("how do i resume training from a checkpoint in pytorch")
    assert result.entry is not None, result
    assert result.entry.id == "checkpoint", result
