"""Reading the tab-separated probe files that the search tasks write before reading the code
(wrong14_probes.tsv ... forms17_probes.tsv): one row per probe, its kind first."""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Collection
from pathlib import Path

import pytest


def probe_params(path: Path, kind: str, still_failing: Collection[str]) -> list:
    """The rows of one kind as (query, asked, written); those in `still_failing` are strict
    expected failures, so one that starts passing fails the suite."""
    fails = pytest.mark.xfail(strict=True, reason="still fails")
    rows = []
    with path.open(encoding="utf-8") as f:
        for row in csv.reader(f, delimiter="\t"):
            if not row or row[0].startswith("#") or row[0] != kind:
                continue
            case = tuple(row[1:4])
            rows.append(pytest.param(*case, marks=fails) if case[0] in still_failing else case)
    return rows


def kinds_written(path: Path) -> Counter[str]:
    """How many probes of each kind the file holds: its tests check them against the counts the
    task wrote, so a row lost or mislabelled in an edit is noticed."""
    with path.open(encoding="utf-8") as f:
        return Counter(row[0] for row in csv.reader(f, delimiter="\t") if row)
