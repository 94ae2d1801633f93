"""`define` answers from an index built for its one query: the names at once, every other stage
(trigrams, full text, meaning) and its imports only if the query gets that far. Whatever it
skips, its answer must be the full index's, field for field (status, entry, strategy, score and
every suggestion), on every hostile query and on a fixed, seeded sample of every kind of every
relevance set (all ~7,500 queries through two indexes took minutes of CI time; a divergence is a
stage that answers differently when built on demand, which shows on any kind's queries)."""

from __future__ import annotations

import functools
import json
import os
import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bot.cli import _define_glossary, define_result
from bot.glossary import Glossary, load_glossary
from bot.search.cli import result_json
from bot.search.index import SearchIndex
from bot.search.relevance import Case, load_cases
from bot.search.results import SearchResult
from tests.resilience.botproc import glossary_bot

ROOT = Path(__file__).resolve().parents[2]
RELEVANCE_SETS = sorted((ROOT / "tests" / "search").glob("relevance*.tsv"))

HOSTILE = (
    "",
    "   ",
    "?",
    "!!!",
    "a",
    "x" * 5000,
    "kv cache " * 200,
    "KV",
    "kv",
    "kvcache",
    "kv caches",
    "KV-CACHE",
    "kv_cache",
    "k v cache",
    "Kv CaChE",
    "   kv\tcache\n",
    "ｋｖ ｃａｃｈｅ",
    "kv-cache",
    "RAG",
    "rag",
    "rags",
    "what is rag?",
    "rag vs fine tuning",
    "difference between lora and qlora",
    "is lora the same as qlora",
    "lora vs",
    "vs",
    "qlora",
    "lora & qlora",
    "speculativ",
    "spculative decoding",
    "speculative-decoding",
    "the memory of past keys and values",
    "how does attention work",
    "🙏",
    "kv cache 🙏",
    "\x00",
    "\u200b",
    "'",
    "''",
    "transformer'",
    "(",
    "*",
    "\\",
    "%s",
    "{}",
    "null",
    "--json",
    "wn-noun-00217499",
    "مرحبا",
    "注意力机制",
    "kv cache\ud800",
)


# About this many queries in the sample, shared evenly by every kind of every relevance set (all
# of a kind if fewer), but never fewer than MIN_PER_KIND of each: a new set adds its kinds without
# adding minutes (twenty of each of 71 kinds took two and a half minutes on one worker).
SAMPLE = 480
MIN_PER_KIND = 4


@functools.cache
def cases_of(path: Path) -> tuple[Case, ...]:
    """The set's cases, read once a run: read again for every kind of every set, the sample
    took 16 s of CPU (over 2 minutes on a loaded machine)."""
    return tuple(load_cases(path))


def kinds_of_sets() -> int:
    return len({(path.name, case.kind) for path in RELEVANCE_SETS for case in cases_of(path)})


def per_kind() -> int:
    return max(MIN_PER_KIND, SAMPLE // kinds_of_sets())


def relevance_queries() -> list[str]:
    return [case.query for path in RELEVANCE_SETS for case in cases_of(path)]


def sampled_relevance_queries() -> list[str]:
    """per_kind() queries of every kind of every set, chosen by a fixed seed (the same ones on
    every run, so a failure repeats), in the sets' own order: an index built on demand sees
    names first and the stages later queries need, as it does on the whole sets."""
    chosen: list[str] = []
    each = per_kind()
    for path in RELEVANCE_SETS:
        cases = cases_of(path)
        by_kind: dict[str, list[int]] = {}
        for number, case in enumerate(cases):
            by_kind.setdefault(case.kind, []).append(number)
        rng = random.Random(f"define-path:{path.name}")
        picked = sorted(
            number
            for numbers in by_kind.values()
            for number in rng.sample(numbers, min(each, len(numbers)))
        )
        chosen += [cases[number].query for number in picked]
    return chosen


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fresh cache for `define`'s glossary (the entry vectors stay where they are)."""
    folder = tmp_path_factory.mktemp("define-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GLOSSARY_CACHE_DIR", str(folder))
        yield folder


@pytest.fixture(scope="module")
def define_glossary(cache_dir: Path) -> Glossary:
    """The glossary as a second `define` reads it: from its cache."""
    _define_glossary(None)
    assert list(cache_dir.glob("glossary-*.json")), "the first run stores the glossary"
    return _define_glossary(None)


@pytest.fixture(scope="module")
def full_answer() -> Callable[[str], SearchResult]:
    """The full index's answer to a query (each asked once: the tests share them)."""
    return functools.cache(SearchIndex.build(load_glossary()).search)


def test_the_sets_give_queries_of_every_kind() -> None:
    assert len(RELEVANCE_SETS) >= 3
    assert len(relevance_queries()) >= 1500
    sample = sampled_relevance_queries()
    assert sample == sampled_relevance_queries(), "the sample is the same on every run"
    asked = set(sample)
    for path in RELEVANCE_SETS:
        for kind in {case.kind for case in cases_of(path)}:
            queries = {case.query for case in cases_of(path) if case.kind == kind}
            assert len(queries & asked) >= min(per_kind() // 2, len(queries)), (path.name, kind)
    assert kinds_of_sets() >= 15


def differences(
    queries: list[str], answer: Callable[[str], SearchResult], full: Callable[[str], SearchResult]
) -> list[tuple[str, SearchResult, SearchResult]]:
    return [(q, got, want) for q in queries if (got := answer(q)) != (want := full(q))]


def test_every_query_answers_as_the_full_index(
    define_glossary: Glossary, full_answer: Callable[[str], SearchResult]
) -> None:
    """One index built for `define`, asked every hostile query and the sample: the first ones
    find it without any stage past the names, later ones with the stages earlier queries built."""
    one_shot = SearchIndex.build(define_glossary, semantic="on demand", on_demand=True)
    queries = [*HOSTILE, *sampled_relevance_queries()]
    assert differences(queries, one_shot.search, full_answer) == []


def test_each_define_answers_as_the_full_index(
    define_glossary: Glossary, full_answer: Callable[[str], SearchResult]
) -> None:
    """`define` itself, from nothing built, for each hostile query and every fourth of the
    sample (each builds its own index: all of them would take minutes; the full index's answers
    to the sample are already known from the test above)."""
    queries = [*HOSTILE, *sampled_relevance_queries()[::4]]
    answer = functools.partial(define_result, glossary=define_glossary)
    assert differences(queries, answer, full_answer) == []


def test_a_name_builds_no_other_stage(define_glossary: Glossary) -> None:
    """What makes `define <a name>` quick: the answer comes from the names alone."""
    index = SearchIndex.build(define_glossary, semantic="on demand", on_demand=True)
    assert index.search("kv cache").entry is not None
    assert index.search("KV caches").entry is not None
    assert not {"trigrams", "fulltext"} & set(vars(index))
    assert isinstance(index._semantic, str)
    index.search("spculative decoding")  # a typo needs the trigrams, built on the spot
    assert "trigrams" in vars(index)


# Through the command itself, as a user runs it: the JSON line is the full index's answer's.
COMMAND_QUERIES = (
    "kv cache",
    "KV caches",
    "spculative decoding",
    "the memory of past keys and values",
    "rag vs fine tuning",
    "ｋｖ ｃａｃｈｅ",
    "x" * 5000,
)


@pytest.mark.parametrize("query", COMMAND_QUERIES, ids=lambda q: q[:20])
async def test_the_command_prints_the_full_index_answer(
    query: str, cache_dir: Path, full_answer: Callable[[str], SearchResult]
) -> None:
    env = {**os.environ, "GLOSSARY_CACHE_DIR": str(cache_dir)}
    status, output = await glossary_bot(env, ROOT, "define", "--json", query)
    expected = full_answer(query)
    assert status == (0 if expected.entry is not None else 1), output
    assert json.loads(output) == json.loads(json.dumps(result_json(expected)))
