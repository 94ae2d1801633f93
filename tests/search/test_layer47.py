"""Task layer47 (issue #12, "calibrated confidence"): a card must not come and go with entries it
is not about. Text added to one unrelated entry, or a server's 200 terms of its own, left every
description's BM25 score moved on main (the mean document length and, for a server, the number of
documents and every word's document count), and cards at the bar with them: a dev16 question at
2.19996 against Layer's bar of 2.2 became a Layer card when any entry grew.

layer47_probes.tsv was written from entry titles and general knowledge, before reading the search
code or any entry's text; its `tuning` rows are tuning-slice rows that `bench/card_stability.py`
found moving on main.
"""

from __future__ import annotations

import pytest

from bot.glossary import Glossary, load_glossary
from bot.search import SearchIndex
from bot.search.fulltext import FullTextIndex
from bot.search.local import compile_local

from .probe_files import ProbeFile
from .stable_cards import UNRELATED, guild_terms, variants

PROBES = ProbeFile("layer47_probes.tsv")
VARIANTS = ("lengthened", "phrasing", "server 200")


@pytest.fixture(scope="module")
def bundled() -> Glossary:
    return load_glossary()


@pytest.fixture(scope="module")
def changed(bundled: Glossary, bundled_index: SearchIndex) -> dict[str, SearchIndex]:
    return variants(bundled, bundled_index)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(("query", "asked", "written"), PROBES.params("same", "none", "tuning"))
def test_the_card_stays_when_an_unrelated_entry_changes(
    bundled_index: SearchIndex,
    changed: dict[str, SearchIndex],
    variant: str,
    query: str,
    asked: str,
    written: str,
) -> None:
    card = bundled_index.search(query).entry_id
    assert card != UNRELATED  # the entry changed is about none of them
    assert changed[variant].search(query).entry_id == card


def test_the_probes_are_the_ones_written() -> None:
    PROBES.counted({"same": 32, "none": 2, "tuning": 6})()


_TEXTS = [
    "keys and values of past tokens kept for decoding",
    "splitting text into tokens a model reads",
    "a small draft model proposes tokens the large model verifies",
    "the step size of each optimizer update",
]


def _scores(index: FullTextIndex, query: str, documents: int) -> dict[int, float]:
    return {
        h.document: h.bm25 for h in index.search(query, limit=index.size) if h.document < documents
    }


def test_a_document_scores_the_same_whatever_another_documents_length() -> None:
    before = FullTextIndex([(_TEXTS, 1.0)], len(_TEXTS))
    longer = [*_TEXTS[:-1], " ".join([_TEXTS[-1]] * 5)]
    after = FullTextIndex([(longer, 1.0)], len(longer))
    for query in ("cached keys and values of past tokens", "split text into tokens"):
        assert _scores(after, query, 3) == _scores(before, query, 3)


def test_a_servers_documents_move_no_bundled_score() -> None:
    bundled = FullTextIndex([(_TEXTS, 1.0)], len(_TEXTS))
    server = [*_TEXTS, *(f"the guild's {n} night of board games and tokens" for n in range(40))]
    local = FullTextIndex([(server, 1.0)], len(server), bundled)
    assert local.scale == bundled.scale
    for query in ("cached keys and values of past tokens", "a draft model verifies tokens"):
        assert _scores(local, query, len(_TEXTS)) == _scores(bundled, query, len(_TEXTS))
    # ... and the server's own words are found, weighed among its own documents
    assert local.search("board games night")[0].document >= len(_TEXTS)


def test_a_compiled_servers_index_reads_the_bundled_word_statistics(
    bundled: Glossary, bundled_index: SearchIndex
) -> None:
    local = compile_local(bundled, bundled_index, guild_terms(), {})
    query = "running the net once from the input through every stage to get an output"
    size = len(bundled_index)
    assert local.index.fulltext.scale == bundled_index.fulltext.scale
    assert _scores(local.index.fulltext, query, size) == _scores(
        bundled_index.fulltext, query, size
    )
