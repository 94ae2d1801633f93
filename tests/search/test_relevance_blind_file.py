"""Shape checks for the blind relevance set (tests/search/relevance_blind.tsv).

Only the file's form is checked here: columns, known ids, the slicing rule and minimum
coverage. How well search does on these queries is measured elsewhere, never asserted here.
"""

import csv
import hashlib
from collections import defaultdict
from pathlib import Path

import pytest

from bot.glossary import load_glossary

BLIND_SET = Path(__file__).with_name("relevance_blind.tsv")
HEADER = ["slice", "kind", "query", "expected", "also"]
KINDS = {"description", "question", "offtopic"}


def slice_for(key: str) -> str:
    """The slicing rule from relevance_blind.md: sha1 of the id (or off-topic query) mod 5."""
    bucket = int(hashlib.sha1(key.encode()).hexdigest(), 16) % 5
    return "dev" if bucket < 2 else "calib" if bucket == 2 else "test"


@pytest.fixture(scope="module")
def rows() -> list[dict[str, str]]:
    with BLIND_SET.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        assert reader.fieldnames == HEADER
        return list(reader)


def test_every_row_is_complete(rows: list[dict[str, str]]) -> None:
    for row in rows:
        assert None not in row, f"extra columns in {row}"
        assert all(value is not None for value in row.values()), f"missing columns in {row}"
        assert row["kind"] in KINDS, row
        assert row["query"], row
        assert row["query"].strip() == row["query"], row


def test_queries_are_unique(rows: list[dict[str, str]]) -> None:
    queries = [row["query"] for row in rows]
    assert len(queries) == len(set(queries))


def test_ids_exist_in_the_glossary(rows: list[dict[str, str]]) -> None:
    glossary = load_glossary()
    for row in rows:
        if row["kind"] == "offtopic":
            assert row["expected"] == "", row
            assert row["also"] == "", row
            continue
        assert row["expected"] in glossary, row
        if row["also"]:
            assert row["kind"] == "question", row
            assert row["also"] in glossary, row
            assert row["also"] != row["expected"], row


def test_slices_follow_the_hash_rule(rows: list[dict[str, str]]) -> None:
    for row in rows:
        key = row["query"] if row["kind"] == "offtopic" else row["expected"]
        assert row["slice"] == slice_for(key), row


def test_coverage(rows: list[dict[str, str]]) -> None:
    kinds_per_entry: defaultdict[str, set[str]] = defaultdict(set)
    for row in rows:
        if row["kind"] != "offtopic":
            kinds_per_entry[row["expected"]].add(row["kind"])
    both = [
        entry for entry, kinds in kinds_per_entry.items() if kinds == {"description", "question"}
    ]
    assert len(both) >= 150
    assert sum(row["kind"] == "offtopic" for row in rows) >= 60
    assert {row["slice"] for row in rows} == {"dev", "calib", "test"}


SECOND_SET = Path(__file__).with_name("relevance_blind2.tsv")


def test_the_second_blind_set_is_one_held_out_slice_of_known_ids() -> None:
    """relevance_blind2.md: every row in slice test2, ids known, at least 80 questions, 50
    descriptions and 30 off-topic queries, no query shared with the first set."""
    glossary = load_glossary()
    with SECOND_SET.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        assert reader.fieldnames == HEADER
        second = list(reader)
    with BLIND_SET.open(encoding="utf-8", newline="") as handle:
        first = {r["query"] for r in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)}
    counts: defaultdict[str, int] = defaultdict(int)
    for row in second:
        assert row["slice"] == "test2", row
        assert row["kind"] in KINDS, row
        assert row["query"] not in first, row
        counts[row["kind"]] += 1
        for entry in filter(None, (row["expected"], row["also"])):
            assert entry in glossary, row
        assert bool(row["expected"]) == (row["kind"] != "offtopic"), row
    assert counts["question"] >= 80
    assert counts["description"] >= 50
    assert counts["offtopic"] >= 30
    assert len({row["query"] for row in second}) == len(second)
