"""The cost frame72 added to an import at the caps: `parse_import` of a server's own export,
2,000 terms of 81 four-letter names each (162,000 names: review72's shape, about 1 MiB) and of
20 (40,000), with each name asked whether it is only a question's wording (`only_framing`, as
`/term import` and `terms import` ask it) against the same import without that question
(`no_framing`, the check before frame72), in the same run; best of --repeat.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/review73_framing_import_bench.py [--repeat 2]

The last line is JSON: seconds each way and their ratio.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.readings_bench import server  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.glossary.interchange import export_bytes, parse_import  # noqa: E402
from bot.glossary.server_terms import MAX_TERMS, no_framing  # noqa: E402
from bot.search.query import only_framing, read_alone  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    glossary = load_glossary()
    results: dict[str, object] = {}
    for per_term in (20, 81):
        terms = server(random.Random(73), per_term, 4)
        data = export_bytes(terms, glossary)
        timed = {}
        for label, framing in (("without", no_framing), ("with", only_framing)):
            best = float("inf")
            for _ in range(args.repeat):
                started = time.perf_counter()
                _, problems = parse_import(
                    data,
                    "ours.toml",
                    glossary,
                    max_terms=MAX_TERMS,
                    max_bytes=len(data) * 2,
                    replaced=terms,
                    held=len(terms),
                    read_as=read_alone,
                    framing=framing,
                )
                best = min(best, time.perf_counter() - started)
                errors = [p for p in problems if p.severity == "error"]
                assert not errors, errors[:3]
            timed[label] = round(best, 2)
        timed["ratio"] = round(timed["with"] / timed["without"], 2)
        results[f"names_{per_term * MAX_TERMS}"] = timed
        print(per_term * MAX_TERMS, "names:", timed, flush=True)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
