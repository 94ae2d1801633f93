"""Every tuning card for the name asked about, as `_counted_name_offered` sees it (after the
asked-name rules), with how the text writes that name: the words before and after each writing,
the meaning's rank of the name, and the row's verdict (task setting64, issue #12).

    OPENBLAS_NUM_THREADS=1 python bench/setting64_rows.py [--slices dev,...] > rows.jsonl

Tuning slices only (held-out slices are dropped by `offer_causes.traced_start`). One JSON line a
card; a what-if reads them (first order: the answer at that step is the row's answer when no
later rule changed it, `final` says).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.offer_causes import HELD_OUT, TUNING  # noqa: E402
from bench.semantic_models import tuning_cases  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.relevance import OFF_TOPIC_KINDS  # noqa: E402

SEEN: list[dict[str, Any]] = []


def _wrap() -> None:
    original = SearchIndex._counted_name_offered

    def traced(self, result, asked, similar, names_in):  # type: ignore[no-untyped-def]
        if result.entry is not None and asked is not None and not SEEN:
            card = self.positions[result.entry.id]
            if card == asked:
                text = result.normalized_query
                spans = [f for f in names_in(text) if f.entry == card]
                ranks = [e for e, _ in similar]
                SEEN.append(
                    {
                        "card": result.entry.id,
                        "rank": ranks.index(card) + 1 if card in ranks else None,
                        "first": self.entries[similar[0][0]].id if similar else None,
                        "offers": [s.id for s in result.suggestions[:3]],
                        "text": text,
                        "spans": [(f.start, f.end) for f in spans],
                    }
                )
        return original(self, result, asked, similar, names_in)

    SearchIndex._counted_name_offered = traced  # type: ignore[method-assign]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--slices", default=",".join((*TUNING, "dev19", "dev20")))
    args = parser.parse_args()
    slices = set(args.slices.split(",")) - HELD_OUT
    _wrap()
    index = SearchIndex.build(load_glossary())
    for case in tuning_cases(slices):
        SEEN.clear()
        result = index.search(case.query)
        if not SEEN:
            continue
        row = SEEN[0]
        off = case.kind in OFF_TOPIC_KINDS
        final = result.entry.id if result.entry else None
        verdict = "off" if off else "right" if case.accepts(row["card"]) else "wrong"
        want = None if off else case.expected
        print(
            json.dumps(
                {
                    "slice": case.slice,
                    "kind": case.kind,
                    "query": case.query,
                    "verdict": verdict,
                    "want": want,
                    "final": final,
                    **row,
                }
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
