"""Every tuning row's answer with what the search knew of its first choice (task wrong49: which
signal carries the wrong cards, and how many right cards stand the same way).

    python bench/wrong49_causes.py [--slices dev,calib,...] --out rows.jsonl

Tuning slices only (held-out slices are refused by `card_table`/`offer_causes`). One JSON line a
row: slice, kind, query, verdict (`offer_causes.row_verdict`), the card's or first offer's id and
strategy, the right entry's rank in the meaning's ten and among the offers, and `card_table`'s
FEATURES of the first choice. Nothing in `bot/search` changes for it."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import card_table, offer_causes  # noqa: E402
from bench.offer_causes import first_choice, row_verdict, traced_cases, traced_start  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, required=True)
    args, slices, index = traced_start(parser)
    ids = [e.id for e in index.entries] if hasattr(index, "entries") else None
    with args.out.open("w", encoding="utf-8") as out:
        for case, result, steps in traced_cases(index, slices, offer_causes.trace):
            seen = card_table._evidence(steps)
            values = card_table.looked_at(index, *seen) if seen else None
            first, strategy = first_choice(result)
            meaning_rank = None
            if seen and case.expected:
                similar = seen[1].similar
                for r, (pos, cos) in enumerate(similar):
                    if ids and case.accepts(ids[pos]):
                        meaning_rank = (r, round(cos, 4))
                        break
            offers = [s.id for s in result.suggestions]
            row = {
                "slice": case.slice,
                "kind": case.kind,
                "query": case.query,
                "expected": case.expected,
                "verdict": row_verdict(case, result),
                "first": first,
                "strategy": strategy,
                "meaning_rank": meaning_rank,
                "offers": offers[:5],
                "features": dict(zip(card_table.FEATURES, values, strict=True)) if values else None,
            }
            out.write(json.dumps(row) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
