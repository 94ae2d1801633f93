"""Task twins77's what-if: changes to the asked-as phrasings (`data/asked-as/*.toml`) measured on
every relevance row of every slice, step by step. Each `--data` folder (a copy of `data/` at one
step; the first is main's, default /work/main/data then this branch's bundled data) gets its own
index and every row is searched in each; rows whose outcome differs between one folder and the
next are counted: tuning ones printed, held-out ones per slice only (bench/step_whatif.py's
outcomes, a wrong card with the right entry in its first three offers marked "+3"). Twins77's
steps: main -> the lines sharing 8 words with a test row taken out -> the lines that moved
ask76/desc76's probes rewritten and the twins' lines added.

The indexes share one encoder, and a query's vector depends on its text alone (to the bit,
tests/search/test_cost72.py), so each query pass is run once and reused by the other indexes
(`--memo FILE` keeps them for the next run): the passes are most of a search's time.

    OPENBLAS_NUM_THREADS=1 python bench/twins77_rows_changed.py --data MAIN,STEP1,... \\
        [--slices dev30,test39] [--memo /tmp/passes.pickle]
"""

from __future__ import annotations

import argparse
import pickle
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.relevance_report import every_case, shown_row_by_row
from bench.step_whatif import outcome as card_outcome
from bot.glossary import bundled_data_dir, load_glossary
from bot.search import SearchIndex
from bot.search.semantic.encoder import Encoder


def outcome(case, result):  # type: ignore[no-untyped-def]
    """bench/step_whatif.py's outcome, a wrong card with the right entry among its first three
    offers marked "+3" (the report's card/3 counts it)."""
    what = card_outcome(case, result)
    if what == "wrong" and any(case.accepts(s.id) for s in result.suggestions[:3]):
        return "wrong+3"
    return what


def remember_passes(memo: dict[Any, Any]) -> None:
    """Run each distinct query pass of the shared encoder once."""
    real = Encoder.encode_queries

    def encode_queries(self, texts, max_tokens=None, fit=False, uncut=()):  # type: ignore[no-untyped-def]
        key = (tuple(texts), max_tokens, fit, tuple(uncut))
        if key not in memo:
            args = {} if max_tokens is None else {"max_tokens": max_tokens}
            memo[key] = real(self, texts, fit=fit, uncut=uncut, **args)
        return memo[key].copy()

    Encoder.encode_queries = encode_queries  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--data",
        default=f"/work/main/data,{bundled_data_dir()}",
        help="data folders, main's first, comma-separated",
    )
    parser.add_argument("--slices", default="", help="only these slices (default: all)")
    parser.add_argument("--memo", default="", help="keep the query passes in this file")
    parser.add_argument("--shard", default="", help="K/N: every Nth row from the Kth (0-based)")
    parser.add_argument("--held-only", action="store_true", help="held-out rows only")
    parser.add_argument("--reverse", action="store_true", help="the shard's rows last first")
    parser.add_argument(
        "--every", type=int, default=0, help="print the totals so far every N rows (held out first)"
    )
    args = parser.parse_args()
    only = set(filter(None, args.slices.split(",")))
    memo: dict[Any, Any] = {}
    if args.memo and Path(args.memo).exists():
        memo.update(pickle.loads(Path(args.memo).read_bytes()))
    remember_passes(memo)
    folders = args.data.split(",")
    indexes = [SearchIndex.build(load_glossary([Path(folder)])) for folder in folders]
    cases = [
        c
        for c in every_case()
        if (not only or c.slice in only) and not (args.held_only and shown_row_by_row(c.slice))
    ]
    if args.every:  # held out first, then the newest tuning slices: a partial run says most
        newest = ("dev31", "dev30", "calib", "chat-check", "everyday-check")
        cases.sort(key=lambda c: (shown_row_by_row(c.slice), c.slice not in newest))
    if args.shard:  # each row's outcomes printed (held out: no text), for adding shards up
        k, n = map(int, args.shard.split("/"))
        cases = cases[k::n]
    at = list(range(len(cases)))  # a row's place in its shard, for adding up two directions
    if args.reverse:
        cases, at = cases[::-1], at[::-1]
    print("rows", len(cases), "steps", " -> ".join(folders), flush=True)
    changed: Counter[tuple[int, str, str, str]] = Counter()
    totals: dict[str, Counter[str]] = {}
    for done, (place, case) in enumerate(zip(at, cases, strict=True), 1):
        if args.every and done % args.every == 0:
            print("after", done, "rows:", flush=True)
            for name, c in sorted(totals.items()):
                print(" ", name, dict(sorted(c.items())), flush=True)
        results = [index.search(case.query) for index in indexes]
        outcomes = [outcome(case, result) for result in results]
        group = "tuning" if shown_row_by_row(case.slice) else "held"
        if args.shard:
            print("row", place, group, case.slice, *outcomes, flush=True)
        for step, what in enumerate(outcomes):
            totals.setdefault(f"{group} {step}", Counter())[what] += 1
        for step in range(1, len(indexes)):
            was, now = outcomes[step - 1], outcomes[step]
            if was == now:
                continue
            if shown_row_by_row(case.slice):
                ruled = results[step]
                card = ruled.entry.id if ruled.entry else None
                print(f"step {step} tuning", case.slice, case.kind, repr(case.query), end=" ")
                print(case.expected, was, "->", now, card, flush=True)
            changed[(step, case.slice, was, now)] += 1  # held out: per-slice totals only
    for key, count in sorted(changed.items()):
        print("step", *key, count)
    for name, c in sorted(totals.items()):
        print(name, dict(sorted(c.items())))
    if args.memo:
        Path(args.memo).write_bytes(pickle.dumps(memo))


if __name__ == "__main__":
    main()
