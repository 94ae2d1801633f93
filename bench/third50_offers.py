"""Every tuning row where `SearchIndex._asked_name_offered` turns a card into an offer (task
third50: where to put the demoted name so that no entry already shown is pushed out).

    python bench/third50_offers.py [--slices dev,calib,...] --out rows.jsonl

Tuning slices only (held-out slices are refused). One JSON line a firing: slice, kind, query,
the entries the row accepts, the card, its offers before the rule, the offers after, and the
final result's card and offers. Nothing in `bot/search` changes for it."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.offer_causes import TUNING  # noqa: E402
from bench.relevance_report import HELD_OUT, SETS  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.relevance import load_cases  # noqa: E402

fired: list[dict[str, Any]] = []


def _wrap() -> None:
    original = SearchIndex._asked_name_offered

    def wrapped(self: SearchIndex, result: Any, *args: Any) -> Any:
        after = original(self, result, *args)
        if after is not result and result.entry is not None:
            fired.append(
                {
                    "card": result.entry.id,
                    "before": [s.id for s in result.suggestions],
                    "after": [s.id for s in after.suggestions],
                    # the meaning's ten (entry, cosine), as the rule saw them
                    "similar": [(self.entries[e].id, round(c, 4)) for e, c in args[1]],
                }
            )
        return after

    SearchIndex._asked_name_offered = wrapped  # type: ignore[method-assign]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--slices", default=",".join(TUNING))
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    slices = set(args.slices.split(",")) - HELD_OUT
    _wrap()
    index = SearchIndex.build(load_glossary())
    with args.out.open("w", encoding="utf-8") as out:
        for name in SETS:
            for case in load_cases(ROOT / "tests/search" / name):
                if case.slice not in slices or case.slice in HELD_OUT:
                    continue
                fired.clear()
                result = index.search(case.query)
                if not fired:
                    continue
                accepts = [e.id for e in index.entries if case.accepts(e.id)]
                row = {
                    "slice": case.slice,
                    "kind": case.kind,
                    "query": case.query,
                    "accepts": accepts,
                    "fired": fired[0],
                    "calls": len(fired),
                    "final_card": result.entry.id if result.entry else None,
                    "final_offers": [s.id for s in result.suggestions],
                }
                out.write(json.dumps(row) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
