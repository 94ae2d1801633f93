"""Search quality on the public relevance set (tests/search/relevance.tsv), bundled glossary.

`glossary-bot relevance` prints the same figures per kind next to the naive baseline.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.glossary import load_glossary
from bot.search import SearchIndex
from bot.search.relevance import Case, NaiveBaseline, evaluate, format_table, load_cases

RELEVANCE_SET = Path(__file__).with_name("relevance.tsv")
KINDS = {
    "exact",
    "case",
    "typo",
    "spacing",
    "plural",
    "acronym",
    "expansion",
    "other-name",
    "question",
    "description",
    "renamed-004",
    "multi-source",
    "off-topic",
}


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    return load_cases(RELEVANCE_SET)


def test_the_set_is_broad(cases: list[Case]) -> None:
    on_topic = [c for c in cases if c.expected]
    assert len(on_topic) >= 250
    assert len(cases) - len(on_topic) >= 25
    assert {c.kind for c in cases} == KINDS
    assert len({c.query for c in cases}) == len(cases), "a query is listed twice"
    glossary = load_glossary()
    assert not [c for c in on_topic if c.expected not in glossary], "unknown expected id"
    sources = {s.source for c in on_topic for s in glossary[c.expected or ""].sources}
    assert sources == {s.key for s in glossary.sources}, "every source is asked about"


def test_quality(bundled_index: SearchIndex, cases: list[Case]) -> None:
    report = evaluate(bundled_index, cases)
    on_topic, off_topic = report.total(off_topic=False), report.total(off_topic=True)
    misses = "\n".join(report.misses)
    assert on_topic.rate(on_topic.top1) >= 0.95, misses
    assert off_topic.rate(off_topic.top1) >= 0.90, misses
    assert on_topic.rate(on_topic.wrong) <= 0.01, misses  # a confident wrong card is the worst


def test_table_names_every_kind(cases: list[Case]) -> None:
    glossary = load_glossary()
    some = cases[::10]
    table = format_table(
        evaluate(SearchIndex.build(glossary), some), NaiveBaseline(list(glossary)).evaluate(some)
    )
    for kind in {c.kind for c in some}:
        assert kind in table
    assert "on-topic" in table
    assert "off-topic" in table
