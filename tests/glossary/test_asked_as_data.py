"""The curated "asked as" phrasings in data/asked-as/: well-formed, and none gives the name away.

A phrasing is how someone describes an entry when they cannot remember its name, so one that
contains the title, the acronym or an alias teaches the search nothing. The parts are written
separately, but together they cover every entry of the bundled glossary.
"""

from __future__ import annotations

import csv
import re
import tomllib
from pathlib import Path

import pytest

from bot.glossary import Entry, Glossary, bundled_data_dir, load_glossary

ASKED_AS_DIR = bundled_data_dir() / "asked-as"
# The loader takes up to 40; 16 keeps each list one that a person curates (issue 12: nine or ten
# per entry, then three more in the voices the search was weakest on: short, and non-expert;
# ask76: up to three more for an entry with a near twin, saying what sets it apart).
MIN_PHRASINGS, MAX_PHRASINGS = 4, 16
MIN_WORDS, MAX_WORDS = 4, 14

# entry id -> (the part file it came from, its table as parsed)
Tables = dict[str, tuple[Path, object]]


def _parts() -> list[Path]:
    return sorted(ASKED_AS_DIR.glob("*.toml"))


def _words(text: str) -> str:
    """Lower case, punctuation to spaces, single-spaced: the form names are compared in."""
    return " ".join(re.sub(r"[^0-9a-z]+", " ", text.casefold()).split())


def _names(entry: Entry) -> set[str]:
    """Every name of the entry (title, acronym, aliases) and the title without its parenthesised
    gloss, as word runs."""
    names = {_words(name) for name in entry.names}
    names.add(_words(re.sub(r"\(.*?\)", " ", entry.title)))
    return {name for name in names if name}


def _contains_phrase(text: str, phrase: str) -> bool:
    return f" {phrase} " in f" {text} "


@pytest.fixture(scope="module")
def glossary() -> Glossary:
    return load_glossary()


@pytest.fixture(scope="module")
def tables_per_part() -> list[tuple[Path, dict[str, object]]]:
    parsed = []
    for part in _parts():
        with part.open("rb") as handle:
            parsed.append((part, tomllib.load(handle)))
    return parsed


@pytest.fixture(scope="module")
def asked_as(tables_per_part: list[tuple[Path, dict[str, object]]]) -> Tables:
    return {
        entry_id: (part, table)
        for part, data in tables_per_part
        for entry_id, table in data.items()
    }


def test_each_id_is_in_one_part_only(tables_per_part: list[tuple[Path, dict[str, object]]]) -> None:
    homes: dict[str, list[str]] = {}
    for part, data in tables_per_part:
        for entry_id in data:
            homes.setdefault(entry_id, []).append(part.name)
    assert {entry_id: names for entry_id, names in homes.items() if len(names) > 1} == {}


def test_there_is_data_to_check(asked_as: Tables) -> None:
    assert _parts(), f"no *.toml in {ASKED_AS_DIR}"
    assert len(asked_as) >= 100


def test_every_glossary_entry_has_phrasings(glossary: Glossary, asked_as: Tables) -> None:
    assert [entry.id for entry in glossary if entry.id not in asked_as] == []


def test_every_id_is_a_glossary_entry(glossary: Glossary, asked_as: Tables) -> None:
    unknown = [
        f"{part.name}: {entry_id}"
        for entry_id, (part, _) in asked_as.items()
        if entry_id not in glossary
    ]
    assert unknown == []


def test_each_table_holds_only_a_list_of_phrasings(
    asked_as: Tables,
) -> None:
    bad = []
    for entry_id, (part, table) in asked_as.items():
        if not isinstance(table, dict) or set(table) != {"asked_as"}:
            bad.append(f"{part.name}: {entry_id} must hold exactly one key, asked_as")
            continue
        phrasings = table["asked_as"]
        if not isinstance(phrasings, list) or not all(isinstance(p, str) for p in phrasings):
            bad.append(f"{part.name}: {entry_id}.asked_as must be a list of strings")
        elif not MIN_PHRASINGS <= len(phrasings) <= MAX_PHRASINGS:
            bad.append(f"{part.name}: {entry_id} has {len(phrasings)} phrasings")
    assert bad == []


def _phrasings(asked_as: Tables) -> list[tuple[str, str]]:
    pairs = []
    for entry_id, (_, table) in asked_as.items():
        if isinstance(table, dict):
            pairs.extend((entry_id, p) for p in table.get("asked_as", []) if isinstance(p, str))
    return pairs


def test_phrasings_are_short_lower_case_and_distinct(
    asked_as: Tables,
) -> None:
    bad = []
    for entry_id, phrasing in _phrasings(asked_as):
        count = len(phrasing.split())
        if not MIN_WORDS <= count <= MAX_WORDS:
            bad.append(f"{entry_id}: {count} words: {phrasing!r}")
        if phrasing != phrasing.lower() or phrasing != phrasing.strip():
            bad.append(f"{entry_id}: not trimmed lower case: {phrasing!r}")
    seen: dict[str, str] = {}
    for entry_id, phrasing in _phrasings(asked_as):
        key = _words(phrasing)
        if key in seen:
            bad.append(f"{entry_id}: {phrasing!r} repeats a phrasing of {seen[key]}")
        seen[key] = entry_id
    assert bad == []


def test_no_phrasing_names_its_entry(glossary: Glossary, asked_as: Tables) -> None:
    leaks = []
    for entry_id, phrasing in _phrasings(asked_as):
        entry = glossary.get(entry_id)
        if entry is None:
            continue  # reported by test_every_id_is_a_glossary_entry
        text = _words(phrasing)
        leaks.extend(
            f"{entry_id}: {phrasing!r} contains {name!r}"
            for name in sorted(_names(entry))
            if _contains_phrase(text, name)
        )
    assert leaks == []


def test_the_name_check_catches_a_leak(glossary: Glossary) -> None:
    # Guards the check above against passing vacuously (e.g. a normalisation that never matches).
    entry = glossary["kv-cache"]
    assert _contains_phrase(_words("Why is my KV-cache so big?"), "kv cache")
    assert any(_contains_phrase(_words("the kv of old tokens"), name) for name in _names(entry))
    assert not any(
        _contains_phrase(_words("kvetching about memory"), name) for name in _names(entry)
    )
    # Aliases count as names too: "key-value cache" is one of kv-cache's.
    assert any(
        _contains_phrase(_words("a Key-Value Cache for decoding"), name) for name in _names(entry)
    )


# twins77: a phrasing that shares a long run of words with a row of a test file (a relevance row,
# held out or not, or a probe) lifts that row for the wrong reason: the row finds its own words,
# not the entry (ask76/desc76 lines sharing 10-12 words with test rows were found by hand). Rows
# written blind later do meet older phrasings' words (131 of them, asked_as_written_first.tsv):
# those are excused, as the row could not have been copied; a phrasing newer than the row is not.
SEARCH_TESTS_DIR = Path(__file__).resolve().parent.parent / "search"
SHARED_RUN = 8


def _run_words(text: str) -> list[str]:
    """Lower case, apostrophes dropped ("what's" = "whats"), other punctuation to spaces."""
    return re.sub(r"[^0-9a-z]+", " ", re.sub(r"['\u2019]", "", text.casefold())).split()


def _runs(text: str) -> set[tuple[str, ...]]:
    words = _run_words(text)
    return {tuple(words[i : i + SHARED_RUN]) for i in range(len(words) - SHARED_RUN + 1)}


def _test_file_queries(tsv: Path) -> list[str]:
    """Every row's query: the `query` column of a file with a header naming one (the relevance
    sets), else the second column (the probe files: kind, query, asked, written); comment rows
    (# ...) skipped."""
    with tsv.open(encoding="utf-8", newline="") as handle:
        rows = [row for row in csv.reader(handle, delimiter="\t") if row and row[0][:1] != "#"]
    column = 1
    if rows and "query" in rows[0]:
        column = rows.pop(0).index("query")
    return [row[column] for row in rows if len(row) > column]


@pytest.fixture(scope="module")
def test_file_runs() -> dict[tuple[str, ...], str]:
    """Each run of SHARED_RUN words in a test file's query -> the file it is in."""
    runs: dict[tuple[str, ...], str] = {}
    for tsv in sorted(SEARCH_TESTS_DIR.glob("*.tsv")):
        for query in _test_file_queries(tsv):
            for run in _runs(query):
                runs.setdefault(run, tsv.name)
    return runs


def _shared(phrasings: list[tuple[str, str]], runs: dict[tuple[str, ...], str]) -> list[str]:
    # Only the file is named: a held-out row's words are not to be printed.
    return sorted(
        f"{entry_id}: {phrasing!r} shares {SHARED_RUN}+ words in a row with a row of {runs[run]}"
        for entry_id, phrasing in phrasings
        for run in sorted(_runs(phrasing) & runs.keys())[:1]
    )


def test_there_are_test_rows_to_compare(test_file_runs: dict[tuple[str, ...], str]) -> None:
    files = set(test_file_runs.values())
    assert {"relevance.tsv", "relevance_blind.tsv"} <= files, sorted(files)[:5]
    assert any(name.endswith("_probes.tsv") for name in files)


WRITTEN_FIRST = Path(__file__).resolve().parent / "asked_as_written_first.tsv"


def _written_first() -> set[tuple[str, str]]:
    """(entry id, phrasing) of the lines committed before the rows they share words with."""
    with WRITTEN_FIRST.open(encoding="utf-8", newline="") as handle:
        rows = [row for row in csv.reader(handle, delimiter="\t") if row and row[0][:1] != "#"]
    assert rows.pop(0) == ["entry", "phrasing"]
    return {(entry_id, phrasing) for entry_id, phrasing in rows}


def test_no_phrasing_shares_a_run_of_words_with_a_test_row(
    asked_as: Tables, test_file_runs: dict[tuple[str, ...], str]
) -> None:
    excused = _written_first()
    assert _shared([p for p in _phrasings(asked_as) if p not in excused], test_file_runs) == []


def test_each_excused_phrasing_is_in_the_data_and_still_shares_a_run(
    asked_as: Tables, test_file_runs: dict[tuple[str, ...], str]
) -> None:
    # a stale line in the list would excuse a later copy of the same words
    excused = _written_first()
    assert excused - set(_phrasings(asked_as)) == set()
    assert len(_shared(sorted(excused), test_file_runs)) == len(excused)


def test_the_shared_run_check_catches_a_copied_line(
    test_file_runs: dict[tuple[str, ...], str],
) -> None:
    # Guards the check above against passing vacuously: a probe's query planted as a phrasing,
    # in another case and punctuation, is caught; eight of its words are, seven are not.
    query = "what's the technique of showing the model a few worked examples in the prompt?"
    assert query in _test_file_queries(SEARCH_TESTS_DIR / "offer72_probes.tsv")
    planted = "What is the Technique of showing the model a few worked-examples"
    found = _shared([("few-shot-learning", planted)], test_file_runs)
    assert len(found) == 1
    assert found[0].startswith(f"few-shot-learning: {planted!r} shares")
    eight, seven = (
        "technique of showing the model a few worked",
        "technique of showing the model a few",
    )
    assert _shared([("few-shot-learning", eight)], test_file_runs) != []
    assert _shared([("few-shot-learning", seven)], test_file_runs) == []
