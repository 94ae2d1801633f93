"""Shape checks for the blind relevance sets (tests/search/relevance_blind*.tsv).

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


def read_rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        assert reader.fieldnames == HEADER
        return list(reader)


@pytest.fixture(scope="module")
def rows() -> list[dict[str, str]]:
    return read_rows(BLIND_SET)


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
    second = read_rows(SECOND_SET)
    first = {row["query"] for row in read_rows(BLIND_SET)}
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


THIRD_SET = Path(__file__).with_name("relevance_blind3.tsv")


def test_the_third_blind_set_alternates_dev2_and_test3_per_entry() -> None:
    """relevance_blind3.md: slices dev2 / test3 alternate over the entries it uses, in glossary
    order (all of an entry's rows in one slice), and over its off-topic rows in file order; ids
    known, `also` only on questions; no query shared with the earlier sets; at least 260
    questions over 200 entries, 80 descriptions and 60 off-topic queries."""
    glossary = load_glossary()
    third = read_rows(THIRD_SET)
    earlier = {row["query"] for path in (BLIND_SET, SECOND_SET) for row in read_rows(path)}
    slice_of_entry: dict[str, str] = {}
    off_topic_slices: list[str] = []
    counts: defaultdict[str, int] = defaultdict(int)
    for row in third:
        assert row["kind"] in KINDS, row
        assert row["slice"] in {"dev2", "test3"}, row
        assert row["query"], row
        assert row["query"].strip() == row["query"], row
        assert row["query"] not in earlier, row
        counts[row["kind"]] += 1
        assert bool(row["expected"]) == (row["kind"] != "offtopic"), row
        if row["also"]:
            assert row["kind"] == "question", row
            assert row["also"] in glossary, row
            assert row["also"] != row["expected"], row
        if row["kind"] == "offtopic":
            off_topic_slices.append(row["slice"])
            continue
        assert row["expected"] in glossary, row
        assert slice_of_entry.setdefault(row["expected"], row["slice"]) == row["slice"], row
    in_glossary_order = [e.id for e in glossary if e.id in slice_of_entry]
    alternating = ["dev2" if n % 2 == 0 else "test3" for n in range(len(in_glossary_order))]
    assert [slice_of_entry[e] for e in in_glossary_order] == alternating
    assert off_topic_slices == [
        "dev2" if n % 2 == 0 else "test3" for n in range(len(off_topic_slices))
    ]
    questioned = {row["expected"] for row in third if row["kind"] == "question"}
    assert counts["question"] >= 260
    assert len(questioned) >= 200
    assert counts["description"] >= 80
    assert counts["offtopic"] >= 60
    assert len({row["query"] for row in third}) == len(third)
