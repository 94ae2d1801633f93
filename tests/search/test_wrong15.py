"""Probes for a broad name written while a narrower neighbour is asked about (task wrong15, issue
#12): wrong15_probes.tsv, written from the entry titles and general knowledge before reading the
search code or the entries. The rule measured with them was not kept (semantic.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.search import SearchIndex

from .probe_files import kinds_written, probe_params

PROBES = Path(__file__).with_name("wrong15_probes.tsv")

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
    return probe_params(PROBES, kind, STILL_FAILING)


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
    kinds = kinds_written(PROBES)
    assert kinds["narrow"] == 20
    assert kinds["real"] == 12
