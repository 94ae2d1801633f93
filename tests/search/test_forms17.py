"""Probes for derived forms of names (task forms17): a verb or adjective form of an entry's name
as a question's subject ("why do llms hallucinate"), in its everyday sense ("distilled water"),
or beside another name that is asked about. forms17_probes.tsv was written from the entry titles
and general knowledge before reading the search code, the entries or the relevance rows."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from bot.search import SearchIndex
from bot.search.query import asked_subject

from .probe_files import probe_params

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
    with PROBES.open(encoding="utf-8") as f:
        kinds = [row[0] for row in csv.reader(f, delimiter="\t") if row]
    assert kinds.count("form") == 22
    assert kinds.count("everyday") == 11
    assert kinds.count("other") == 11


@pytest.mark.parametrize(
    ("core", "verb", "words"),
    [
        ("does it mean to distill a model", "distill", ["model"]),
        ("it mean to fine tune a model", "fine", ["tune", "a", "model"]),
        ("does it really mean to quantize", "quantize", []),
        ("does it mean for a model to be aligned", None, ["it", "mean", "for", "a", "model"]),
    ],
)
def test_what_it_means_to_do_something_asks_about_the_act(
    core: str, verb: str | None, words: list[str]
) -> None:
    found_verb, found_words = asked_subject(core)
    assert (found_verb, found_words[: len(words)]) == (verb, words)


# Written after reading the code, for the rule the probes measured (`QuestionRules._done_by_name`)
@pytest.mark.parametrize(
    ("query", "entry_id"),
    [
        ("how does gpt-2 tokenize emojis", "tokenization"),  # the doer only says where
        ("how does vllm quantize weights", "quantization"),
        ("how are llms evaluated", "llm-evaluation"),  # the doer and the form make a name
    ],
)
def test_what_a_named_doer_does_is_asked_about(
    bundled_index: SearchIndex, query: str, entry_id: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None, result
    assert result.entry.id == entry_id


def test_a_third_name_written_leaves_the_doer_rule_out(bundled_index: SearchIndex) -> None:
    """ "... hallucinate less with rag": the third name may be what is asked (an offer)."""
    result = bundled_index.search(
        "why do llms hallucinate less with retrieval augmented generation"
    )
    assert result.entry is None or result.entry.id != "hallucination", result
