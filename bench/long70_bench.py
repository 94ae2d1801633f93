"""The cost of reading a long text whole (task long70): search latency on the texts longer than
the names' cut (`index.MAX_QUERY`, 300 characters), against another commit's code in the same
minutes, with texts of 20 words or more within the cut as a control (their search is unchanged).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/long70_bench.py [--base COMMIT] [--rounds 3]

The long texts are the tuning slices' rows over 300 characters and tests/search/long70_probes.tsv
(held-out slices are skipped before a query is read); the control, every 4th tuning row of 20
words or more within 300 characters. `--base` (default main) is checked out with `git archive`
into a temporary folder; each round runs one process on it and one on this checkout, in turn,
and a latency is the query's best CPU time (`process_time`) over the rounds of its code, as the
machine is shared. The last line is one JSON object: p50/p90/p99 in ms of each code on each set
and their ratios (this checkout over the base).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the bot runs; before numpy loads

ROOT = Path(__file__).resolve().parent.parent
CUT = 300  # index.MAX_QUERY, written out: the base's code may not have the same module
LONG_WORDS = 20
PERCENTILES = (50, 90, 99)


def queries() -> dict[str, list[str]]:
    """The long texts and the control, read from this checkout's files."""
    sys.path[:0] = [str(ROOT), str(ROOT / "bench")]
    from relevance_report import HELD_OUT, SETS

    from bot.search.relevance import load_cases

    rows = [
        case.query
        for name in SETS
        for case in load_cases(ROOT / "tests/search" / name)
        if case.slice not in HELD_OUT and not case.slice.startswith("test")
    ]
    with (ROOT / "tests/search/long70_probes.tsv").open(encoding="utf-8") as f:
        probes = [r[1] for r in csv.reader(f, delimiter="\t") if r and not r[0].startswith("#")]
    long = [q for q in [*rows, *probes] if len(q) > CUT]
    within = [q for q in rows if len(q) <= CUT and len(q.split()) >= LONG_WORDS]
    return {"long": long, "control": within[::4]}


def child(code: Path, sets: dict[str, list[str]]) -> dict[str, list[float]]:
    """Each query's best CPU time (ms) of two searches with `code`'s bot package."""
    sys.path.insert(0, str(code))
    from bot.glossary import load_glossary
    from bot.search import SearchIndex

    index = SearchIndex.build(tuple(load_glossary()))
    index.search("warm up the encoder with a sentence")
    times: dict[str, list[float]] = {}
    for name, texts in sets.items():
        times[name] = []
        for text in texts:
            best = float("inf")
            for _ in range(2):
                start = time.process_time()
                index.search(text)
                best = min(best, time.process_time() - start)
            times[name].append(best * 1000)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="main")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        print(json.dumps(child(args.child, json.loads(sys.stdin.read()))))
        return 0
    import numpy as np

    sets = queries()
    with tempfile.TemporaryDirectory() as base:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", args.base, "bot", "data"],
            check=True,
            capture_output=True,
        )
        subprocess.run(["tar", "-x", "-C", base], input=archive.stdout, check=True)
        best: dict[str, dict[str, list[float]]] = {}
        for round_ in range(args.rounds):
            for label, code in (("base", Path(base)), ("this", ROOT)):
                run = subprocess.run(
                    [sys.executable, __file__, "--child", str(code)],
                    input=json.dumps(sets),
                    capture_output=True,
                    text=True,
                    check=True,
                )
                times = json.loads(run.stdout.splitlines()[-1])
                got = best.setdefault(label, {})
                for name, ms in times.items():
                    got[name] = [min(a, b) for a, b in zip(got.get(name, ms), ms, strict=True)]
                print(f"round {round_ + 1} {label}: done", flush=True)
    summary: dict[str, object] = {"base": args.base, "rounds": args.rounds}
    for name, texts in sets.items():
        figures = {
            label: {
                f"p{p}": round(float(np.percentile(best[label][name], p)), 2) for p in PERCENTILES
            }
            for label in ("base", "this")
        }
        ratio = {
            f"p{p}": round(figures["this"][f"p{p}"] / figures["base"][f"p{p}"], 3)
            for p in PERCENTILES
        }
        summary[name] = {"texts": len(texts), **figures, "ratio": ratio}
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
