"""Measuring search quality on a relevance set, next to a naive baseline.

A relevance set is a TSV file of `kind`, `query`, `expected` (an entry id, or `-` for a query
the glossary should not answer), or of `slice`, `kind`, `query`, `expected`, `also` (other ids
that are right too, comma-separated) for a set kept in slices: `dev` to tune on, `calib` to set
thresholds on, `test` only to report. For a query with an answer, the engine's *top-1* is the entry it
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
    also: tuple[str, ...] = ()  # other entries whose card is right too
    slice: str = "all"

    def accepts(self, entry_id: str | None) -> bool:
        return entry_id is not None and (entry_id == self.expected or entry_id in self.also)


@dataclass(slots=True)
class Tally:
    total: int = 0
    top1: int = 0  # on-topic: right entry first; off-topic: no card sent
    direct: int = 0  # on-topic: confident match on the right entry
    wrong: int = 0  # a confident card for the wrong entry (or any card, off-topic)
    near: int = 0  # on-topic: the right entry as the card or among the first three choices
    cards: int = 0  # confident matches sent, right or wrong
    paired: int = 0  # on-topic rows with an `also` entry ("X vs Y": X expected, Y also)
    both: int = 0  # of those: a card for the expected entry with the first `also` offered first
    offered: int = 0  # off-topic: no card but choices offered (nonsense deserves "no entry")

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
            if (kind in OFF_TOPIC_KINDS) == off_topic:
                all_kinds.total += tally.total
                all_kinds.top1 += tally.top1
                all_kinds.direct += tally.direct
                all_kinds.wrong += tally.wrong
                all_kinds.near += tally.near
                all_kinds.cards += tally.cards
                all_kinds.paired += tally.paired
                all_kinds.both += tally.both
                all_kinds.offered += tally.offered
        return all_kinds


OFF_TOPIC_KINDS = {"off-topic", "offtopic"}


def load_cases(path: Path) -> list[Case]:
    """Read a relevance TSV: a header line, then kind, query, expected, or slice, kind,
    query, expected, also (the header names the columns)."""
    cases: list[Case] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    sliced = lines[0].split("\t")[0].strip() == "slice" if lines else False
    width = 5 if sliced else 3
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if sliced and len(parts) == 4:
            parts.append("")
        if len(parts) != width:
            raise ValueError(f"{path}:{number}: expected {width} tab-separated columns")
        if sliced:
            part, kind, query, expected, also = (p.strip() for p in parts)
            others = tuple(a.strip() for a in also.split(",") if a.strip() not in ("", OFF_TOPIC))
        else:
            (kind, query, expected), part, others = parts, "all", ()
        answer = None if expected in ("", OFF_TOPIC) else expected
        cases.append(Case(kind, query, answer, others, part))
    return cases


def evaluate(index: SearchIndex, cases: Iterable[Case]) -> Report:
    report = Report()
    for case in cases:
        result = index.search(case.query)
        tally = report.tally(case.kind)
        tally.total += 1
        matched = result.entry_id
        tally.cards += matched is not None
        if case.expected is None:
            ok = matched is None or case.accepts(matched)
            tally.wrong += not ok
            tally.offered += matched is None and bool(result.suggestions)
        else:
            ok = case.accepts(result.best_id)
            tally.direct += case.accepts(matched)
            tally.wrong += matched is not None and not case.accepts(matched)
            offered = [matched, *(s.id for s in result.suggestions[:3])]
            tally.near += any(case.accepts(i) for i in offered)
            if case.also:  # strict: the first entry carded, the second its first offer
                tally.paired += 1
                first_offer = result.suggestions[0].id if result.suggestions else None
                tally.both += matched == case.expected and first_offer == case.also[0]
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


def evaluate_slices(index: SearchIndex, cases: Sequence[Case]) -> dict[str, Report]:
    """One report per slice of a sliced set, in the set's order."""
    slices = dict.fromkeys(c.slice for c in cases)
    return {part: evaluate(index, [c for c in cases if c.slice == part]) for part in slices}


def format_sliced(reports: dict[str, Report]) -> str:
    """Per slice and kind: card right (top-1 as a card), right in card-or-first-three, any
    right first, wrong cards; off-topic: no card sent."""
    width = max(7, *(len(part) + 1 for part in reports))  # "everyday-check"
    header = (
        f"{'slice':<{width}}{'kind':<13}{'n':>5}{'card ok':>9}{'card/3':>8}{'first':>8}"
        f"{'wrong':>8}{'no card':>9}"
    )
    rows = [header, "-" * len(header)]
    for part, report in reports.items():
        for kind, t in report.by_kind.items():
            if kind in OFF_TOPIC_KINDS:
                rows.append(
                    f"{part:<{width}}{kind:<13}{t.total:>5}{'':>9}{'':>8}{'':>8}"
                    f"{t.rate(t.wrong):>8.1%}{t.rate(t.top1):>9.1%}"
                )
            else:
                rows.append(
                    f"{part:<{width}}{kind:<13}{t.total:>5}{t.rate(t.direct):>9.1%}"
                    f"{t.rate(t.near):>8.1%}{t.rate(t.top1):>8.1%}{t.rate(t.wrong):>8.1%}"
                )
    for part, report in reports.items():
        for kind, t in report.by_kind.items():
            if t.paired:
                rows.append(
                    f"{part:<{width}}{kind:<13}pairs {t.paired:>4}: first carded, second offered "
                    f"first {t.both} ({t.both / t.paired:.1%})"
                )
    rows.append(
        "card ok: a card for the right entry; card/3: right as the card or among the first "
        "three choices; first: right entry shown first; wrong: a card for a wrong entry "
        "(off-topic: any card); no card: off-topic queries answered with no card."
    )
    return "\n".join(rows)


def format_table(engine: Report, baseline: Report) -> str:
    """One row per kind: engine top-1, direct and wrong rates next to the baseline's."""
    header = (
        f"{'kind':<14}{'n':>5}  {'top-1':>7}{'direct':>8}{'wrong':>7}"
        f"   {'naive top-1':>11}{'naive wrong':>12}"
    )
    rows = [header, "-" * len(header)]
    kinds = sorted(engine.by_kind, key=lambda k: (k in OFF_TOPIC_KINDS, k))
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
