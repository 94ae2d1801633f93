"""Tasks desc68b and desc69: a guard for desc68's clear-words branch of `fusion.words_agree` (a
text that asks nothing: the words' first, a description `WORDS_CLEAR_LEAD` points over their
second, that the meaning also puts first at `WORDS_CLEAR_COSINE`), chosen on the tuning slices
(dev23 among them, written for the shapes it goes wrong on) and desc68's and desc69's probes only
(held-out slices are refused).

Every row is searched once with the branch off, noting the rows where it would fire at the
loosest guard (the only rows any guard can move); those are searched again with it on, and a row
moves under a guard where the cosine, the meaning's lead, the words' lead and the field of its
first firing call clear it; the text asking in a later clause (`query.asked_clause`) or ending in
a tag that asks (`query.asked_by_tag`: "... isn't it") are guards too, the branch's own
`asked_later` switched off while searching so that either can be measured. `--rows` lists the
moved rows with those figures.

    OPENBLAS_NUM_THREADS=1 python bench/desc69_guard.py [--rows] [--slices dev23,...]
"""

from __future__ import annotations

import argparse
import csv
import itertools
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bot.search.fusion as fusion  # noqa: E402
import bot.search.index as index_module  # noqa: E402
from bench.offer_causes import row_verdict  # noqa: E402
from bench.semantic_models import tuning_cases  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex, SearchResult  # noqa: E402
from bot.search.query import asked_by_tag, asked_clause  # noqa: E402
from bot.search.ranking import Candidate  # noqa: E402

FIELDS = (0.1, 0.15, 0.2, 0.22, 0.25, 0.28)  # below 0.2: what the field gate keeps out
COSINES = (0.45, 0.5, 0.55)
WORDS_LEADS = (8.0, 10.0, 12.0, 15.0)
MEANING_LEADS = (0.0, 0.01, 0.02, 0.04)
Row = tuple[str, str, str, str]  # slice, kind, query, the entry asked ("" for none)
PROBE_FILES = ("desc68_probes.tsv", "desc69_probes.tsv")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", action="store_true")
    parser.add_argument("--slices", help="comma-separated tuning slices (default: all, probes too)")
    args = parser.parse_args()
    rows: list[Row] = []
    cases = tuning_cases(args.slices.split(",") if args.slices else None)
    index = SearchIndex.build(load_glossary())
    for name in () if args.slices else PROBE_FILES:
        with (ROOT / "tests/search" / name).open(encoding="utf-8") as f:
            probes = [r for r in csv.reader(f, delimiter="\t") if r and not r[0].startswith("#")]
        where = name.removesuffix("_probes.tsv")
        rows += [(where, r[0], r[1], r[2] if r[0] != "none" else "") for r in probes]
    agree = fusion.words_agree
    fuse = index_module.fuse

    def unguarded(*args: object, **kwargs: object) -> None:  # the later-clause guard measured here
        kwargs["asked_later"] = False
        fuse(*args, **kwargs)  # type: ignore[arg-type]

    index_module.fuse = unguarded  # type: ignore[assignment]
    fired: list[tuple[float, float, float, float]] = []  # cosine, meaning's lead, words', field
    rule_on = [False]

    def recorded(
        similar: Sequence[tuple[int, float]],
        words_first: tuple[int, Candidate] | None,
        field: float,
        words_lead: float = 0.0,
    ) -> bool:
        if agree(similar, words_first, field):
            return True
        if field >= min(FIELDS) and agree(similar, words_first, 1.0, words_lead):
            fired.append((similar[0][1], similar[0][1] - similar[1][1], words_lead, field))
            return rule_on[0]
        return False

    fusion.words_agree = recorded  # type: ignore[assignment]

    def verdict(n: int, result: SearchResult) -> str:
        if n < len(cases):
            return row_verdict(cases[n], result)
        _, kind, _, asked = rows[n - len(cases)]
        if kind == "tagq" and result.entry is None:
            return "right"  # a tag question's probe: its card or none
        if kind == "none":
            return "off-card" if result.entry else "off-ok"
        if result.entry is None:
            return "none"
        return "right" if result.entry.id == asked else "wrong"

    queries = [c.query for c in cases] + [r[2] for r in rows]
    base: dict[int, str] = {}
    for n, query in enumerate(queries):
        fired.clear()
        result = index.search(query)
        if fired:
            base[n] = verdict(n, result)
    print(f"{len(queries)} rows; {len(base)} where the loosest guard fires", flush=True)
    slice_of = [c.slice for c in cases] + [r[0] for r in rows]
    fires = Counter(f"{slice_of[n]} {verdict}" for n, verdict in base.items())
    print(
        "  fires, by slice and verdict without it: "
        + ", ".join(f"{k} {v}" for k, v in sorted(fires.items())),
        flush=True,
    )
    rule_on[0] = True
    moved: dict[int, tuple[tuple[float, float, float, float], str]] = {}
    for n in base:
        fired.clear()
        result = index.search(queries[n])
        now = verdict(n, result)
        if fired and now != base[n]:
            moved[n] = (fired[0], now + (f" {result.entry.id}" if result.entry else ""))
    later = {n for n in moved if asked_clause(queries[n]) is not None}  # asks in a later clause
    tagged = {n for n in moved if asked_by_tag(queries[n])}
    for n, (figures, now) in moved.items():
        where = cases[n].slice if n < len(cases) else rows[n - len(cases)][0]
        if args.rows:
            marks = ("L" if n in later else "-") + ("T" if n in tagged else "-")
            print(
                f"  {where}\t{marks}\t{base[n]} -> {now}\t"
                + " ".join(f"{x:.3f}" for x in figures)
                + f"\t{queries[n][:90]}"
            )
    print("field cos  words mlead later tag | right+ | wrong+ | off+ | other")
    for field, cosine, lead, mlead, no_later, no_tag in itertools.product(
        FIELDS, COSINES, WORDS_LEADS, MEANING_LEADS, (False, True), (False, True)
    ):
        gain: Counter[str] = Counter()
        for n, ((cos, ahead, words, leaning), now) in moved.items():
            if cos < cosine or ahead < mlead or words < lead or leaning < field:
                continue
            if (no_later and n in later) or (no_tag and n in tagged):
                continue
            gain[now.split()[0] + "+"] += 1
            gain[base[n] + "-"] += 1
        other = sum(v for k, v in gain.items() if k.endswith("+")) - sum(
            gain[k] for k in ("right+", "wrong+", "off-card+")
        )
        print(
            f"{field:<5} {cosine:<4} {lead:<5} {mlead:<5} {'no' if no_later else 'any':<5} "
            f"{'no' if no_tag else 'any':<3} | "
            f"{gain['right+']:>6} | "
            f"{gain['wrong+']:>6} | {gain['off-card+']:>4} | {other}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
