"""Probes for derived forms of names (task forms17): a verb or adjective form of an entry's name
as a question's subject ("why do llms hallucinate"), in its everyday sense ("distilled water"),
or beside another name that is asked about. forms17_probes.tsv was written from the entry titles
and general knowledge before reading the search code, the entries or the relevance rows."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.search import SearchIndex

from .probe_files import kinds_written, probe_params

PROBES = Path(__file__).with_name("forms17_probes.tsv")

# Probes that fail on this branch, all of which failed on main too: strict expected failures,
# so one that starts passing fails the suite and is moved out of here.
STILL_FAILING = {
    "how can i tell if my network is overfit",  # Validation Loss offered first, then Overfitting
    "how to watermark my photos in lightroom",  # Watermarking card
}


def probes(kind: str) -> list:
    """The probe rows of one kind as (query, asked, written), failing ones marked."""
    return probe_params(PROBES, kind, STILL_FAILING)


@pytest.mark.parametrize(("query", "asked", "written"), probes("form"))
def test_a_form_of_the_name_asked_about_gets_its_card(
    bundled_index: SearchIndex, query: str, asked: str, written: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None, result
    assert result.entry.id == asked, result


@pytest.mark.parametrize(("query", "asked", "written"), probes("everyday"))
def test_a_form_in_its_everyday_sense_gets_no_card(
    bundled_index: SearchIndex, query: str, asked: str, written: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is None, result


@pytest.mark.parametrize(("query", "asked", "written"), probes("other"))
def test_another_name_asked_about_beside_a_form_gets_its_card(
    bundled_index: SearchIndex, query: str, asked: str, written: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None, result
    assert result.entry.id == asked, result


def test_the_probes_are_the_ones_written() -> None:
    kinds = kinds_written(PROBES)
    assert kinds["form"] == 22
    assert kinds["everyday"] == 11
    assert kinds["other"] == 11


@pytest.mark.parametrize(
    "query",
    [
        "what does it mean to distill water",
        "what does it mean to distill whiskey",
        "what does it mean to quantize a song in ableton",
    ],
)
def test_what_it_means_to_do_an_everyday_thing_gets_no_card(
    bundled_index: SearchIndex, query: str
) -> None:
    assert bundled_index.search(query).entry is None
