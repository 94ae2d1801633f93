"""Which entries' questions are offered, not carded, with the meaning ranking them first (issue 12).

    OPENBLAS_NUM_THREADS=1 python bench/asked_offers.py [--slices dev,...] [--rows]

Tuning slices only (held-out slices are refused). For every question row answered with no card
and the right entry offered first, whether the meaning (the semantic stage) put the right entry
first too, with its cosine and its lead over the meaning's second. Per entry: such rows, their
mean cosine and lead, and the entry's question rows carded right, so that content work (asked-as
phrasings in a question's voice) goes to the entries the meaning finds but under the card bar.
Reads the steps by `bench/offer_causes.py`'s wrapping; nothing in `bot/search` changes.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import offer_causes  # noqa: E402

TUNING = offer_causes.TUNING


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", action="store_true")
    args, slices, index = offer_causes.traced_start(parser, TUNING)
    offered: dict[str, list[tuple[float, float]]] = defaultdict(list)
    carded: dict[str, int] = defaultdict(int)
    others: dict[str, int] = defaultdict(int)
    rows: list[str] = []
    for case, result, steps in offer_causes.traced_cases(index, slices, offer_causes.trace):
        if case.kind != "question":
            continue
        if result.entry is not None:
            if case.accepts(result.entry.id):
                carded[result.entry.id] += 1
            continue
        if not case.accepts(result.best_id):
            continue
        fuse = next((s for s in steps if s["step"] == "fuse"), None)
        similar = fuse["similar"] if fuse else []
        first = index.entries[similar[0][0]].id if similar else None
        if first is not None and case.accepts(first):
            lead = similar[0][1] - similar[1][1] if len(similar) > 1 else 0.0
            offered[first].append((similar[0][1], lead))
            rows.append(f"{first}\t{similar[0][1]:.3f}\t{lead:.3f}\t{case.slice}\t{case.query}")
        else:
            others[str(result.best_id)] += 1
    print(
        "entry\toffered, meaning first\tmean cosine\tmean lead\tcarded right\toffered, meaning not first"
    )
    for entry, found in sorted(offered.items(), key=lambda item: (-len(item[1]), item[0])):
        cosine = sum(c for c, _ in found) / len(found)
        lead = sum(gap for _, gap in found) / len(found)
        print(f"{entry}\t{len(found)}\t{cosine:.3f}\t{lead:.3f}\t{carded[entry]}\t{others[entry]}")
    print(
        f"all\t{sum(len(f) for f in offered.values())}\t\t\t{sum(carded.values())}\t{sum(others.values())}"
    )
    if args.rows:
        print("\n".join(sorted(rows)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
