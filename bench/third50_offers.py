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

from bench import offer_causes  # noqa: E402
from bench.offer_causes import traced_cases, traced_start  # noqa: E402


def _fired(steps: list[dict[str, Any]], index: Any) -> list[dict[str, Any]]:
    """The calls of `_asked_name_offered` (in every `_search` call) that turned a card into
    another answer."""
    return [
        {
            "card": s["given"].entry.id,
            "before": [o.id for o in s["given"].suggestions],
            "after": [o.id for o in s["gave"].suggestions],
            # the meaning's ten (entry, cosine), as the rule saw them
            "similar": [(index.entries[e].id, round(c, 4)) for e, c in s["args"][1]],
        }
        for s in steps
        if s["step"] == "rule"
        and s["rule"] == "_asked_name_offered"
        and s["gave"] is not s["given"]
        and s["given"].entry is not None
    ]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, required=True)
    args, slices, index = traced_start(parser)
    with args.out.open("w", encoding="utf-8") as out:
        cases = traced_cases(index, slices, offer_causes.trace, every_call=True)
        for case, result, steps in cases:
            fired = _fired(steps, index)
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
