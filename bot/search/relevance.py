"""Measuring search quality on a relevance set, next to a naive baseline.

A relevance set is a TSV file of `kind`, `query`, `expected` (an entry id, or `-` for a query
the glossary should not answer). For a query with an answer, the engine's *top-1* is the entry it
shows first: the matched card, or the first "did you mean" choice; *direct* counts confident
matches on the right entry, *wrong* confident matches on another one (the worst answer). For a
query without one, it is correct when no card is sent (`none` or suggestions only).

The baseline is what many bots do: rapidfuzz `process.extractOne` with WRatio over all names,
answering when the score reaches `BASELINE_CUTOFF`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rapidfuzz import fuzz, process, utils

from bot.glossary.models import Entry
from bot.search.index import SearchIndex

BASELINE_CUTOFF = 80.0
OFF_TOPIC = "-"


@dataclass(frozen=True, slots=True)
class Case:
    kind: str
    query: str
    expected: str | None  # None: the glossary has no answer


@dataclass(slots=True)
class Tally:
    total: int = 0
    top1: int = 0  # on-topic: right entry first; off-topic: no card sent
    direct: int = 0  # on-topic: confident match on the right entry
    wrong: int = 0  # a confident card for the wrong entry (or any card, off-topic)

    def rate(self, count: int) -> float:
        return count / self.total if self.total else 0.0


@dataclass(slots=True)
class Report:
    by_kind: dict[str, Tally] = field(default_factory=dict)
    misses: list[str] = field(default_factory=list)

    def tally(self, kind: str) -> Tally:
        return self.by_kind.setdefault(kind, Tally())

    def total(self, *, off_topic: bool) -> Tally:
        all_kinds = Tally()
        for kind, tally in self.by_kind.items():
            if (kind == "off-topic") == off_topic:
                all_kinds.total += tally.total
                all_kinds.top1 += tally.top1
                all_kinds.direct += tally.direct
                all_kinds.wrong += tally.wrong
        return all_kinds


def load_cases(path: Path) -> list[Case]:
    """Read a relevance TSV (a header line, then kind, query, expected)."""
    cases: list[Case] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 3:
            raise ValueError(f"{path}:{number}: expected 3 tab-separated columns")
        kind, query, expected = parts
        cases.append(Case(kind, query, None if expected == OFF_TOPIC else expected))
    return cases


def evaluate(index: SearchIndex, cases: Iterable[Case]) -> Report:
    report = Report()
    for case in cases:
        result = index.search(case.query)
        tally = report.tally(case.kind)
        tally.total += 1
        matched = result.entry.id if result.entry else None
        if case.expected is None:
            ok = result.status != "match"
            tally.wrong += not ok
        else:
            ok = result.best_id == case.expected
            tally.direct += matched == case.expected
            tally.wrong += matched is not None and matched != case.expected
        tally.top1 += ok
        if not ok:
            shown = matched or result.best_id or "-"
            report.misses.append(
                f"{case.kind}: {case.query!r} -> {result.status} {shown} ({result.strategy}, "
                f"{result.score}); expected {case.expected or 'no card'}"
            )
    return report


class NaiveBaseline:
    """rapidfuzz `extractOne` with WRatio over every name (names normalised once)."""

    def __init__(self, entries: Sequence[Entry]) -> None:
        self._owners: list[str] = []
        names: list[str] = []
        for entry in entries:
            for name in entry.names:
                names.append(utils.default_process(name))
                self._owners.append(entry.id)
        self._names = names

    def lookup(self, query: str) -> tuple[str | None, float]:
        """The best entry id and its score (None if nothing scores at all)."""
        best = process.extractOne(
            query, self._names, scorer=fuzz.WRatio, processor=None, score_cutoff=0
        )
        if best is None:
            return None, 0.0
        _, score, position = best
        return self._owners[position], float(score)

    def evaluate(self, cases: Iterable[Case]) -> Report:
        report = Report()
        for case in cases:
            found, score = self.lookup(utils.default_process(case.query))
            tally = report.tally(case.kind)
            tally.total += 1
            answers = score >= BASELINE_CUTOFF
            if case.expected is None:
                ok = not answers
                tally.wrong += answers
            else:
                ok = found == case.expected
                tally.direct += ok and answers
                tally.wrong += answers and not ok
            tally.top1 += ok
        return report


def format_table(engine: Report, baseline: Report) -> str:
    """One row per kind: engine top-1, direct and wrong rates next to the baseline's."""
    header = (
        f"{'kind':<14}{'n':>5}  {'top-1':>7}{'direct':>8}{'wrong':>7}"
        f"   {'naive top-1':>11}{'naive wrong':>12}"
    )
    rows = [header, "-" * len(header)]
    kinds = sorted(engine.by_kind, key=lambda k: (k == "off-topic", k))
    for kind in kinds:
        rows.append(_row(kind, engine.by_kind[kind], baseline.by_kind.get(kind, Tally())))
    rows.append("-" * len(header))
    rows.append(_row("on-topic", engine.total(off_topic=False), baseline.total(off_topic=False)))
    rows.append(_row("off-topic", engine.total(off_topic=True), baseline.total(off_topic=True)))
    rows.append(
        "top-1: right entry first (off-topic: no card sent); direct: confident match on it; "
        f"wrong: a confident wrong card. Naive: extractOne WRatio, answers at >= "
        f"{BASELINE_CUTOFF:.0f}."
    )
    return "\n".join(rows)


def _row(kind: str, mine: Tally, naive: Tally) -> str:
    return (
        f"{kind:<14}{mine.total:>5}  {mine.rate(mine.top1):>7.1%}{mine.rate(mine.direct):>8.1%}"
        f"{mine.rate(mine.wrong):>7.1%}   {naive.rate(naive.top1):>11.1%}"
        f"{naive.rate(naive.wrong):>12.1%}"
    )
