"""Every tuning card for a name the text writes where the meaning ranks that name and another
entry nearly level, with what the text reads as with the name taken out (task tie70, issue #12).

    OPENBLAS_NUM_THREADS=1 python bench/tie70_rows.py [--slices dev23,...] [--gap 0.03] > rows.jsonl

Tuning slices only (calib and the held-out slices are refused). One JSON line a final card whose
entry is written in the text and ranked by the meaning within `--gap` of its best other entry
(either side): the row's verdict, the meaning's first entries, and the ranking of the text with
every writing of the card's name removed (`rest`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.offer_causes import TUNING  # noqa: E402
from bench.relevance_report import HELD_OUT  # noqa: E402
from bench.semantic_models import tuning_cases  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.relevance import OFF_TOPIC_KINDS  # noqa: E402

SEEN: list[dict[str, Any]] = []


def _wrap() -> None:
    original = SearchIndex._material_name_offered

    def traced(self, result, asked, similar, names_in):  # type: ignore[no-untyped-def]
        SEEN.append({"self": self, "similar": similar, "names_in": names_in, "asked": asked})
        return original(self, result, asked, similar, names_in)

    SearchIndex._material_name_offered = traced  # type: ignore[method-assign]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--slices", default=",".join((*TUNING, *(f"dev{n}" for n in range(19, 24))))
    )
    parser.add_argument("--gap", type=float, default=0.03)
    args = parser.parse_args()
    slices = set(args.slices.split(",")) - HELD_OUT - {"calib"}
    _wrap()
    index = SearchIndex.build(load_glossary())
    semantic = index.semantic
    assert semantic is not None
    for case in tuning_cases(slices):
        SEEN.clear()
        result = index.search(case.query)
        if not SEEN or result.entry is None:
            continue
        seen = SEEN[-1]
        similar, names_in = seen["similar"], seen["names_in"]
        card = index.positions[result.entry.id]
        text = result.normalized_query
        spans = [f for f in names_in(text) if f.entry == card]
        if not spans or not similar:
            continue
        cos = dict(similar)
        if card not in cos:
            continue
        other = next((e, c) for e, c in similar if e != card)
        gap = cos[card] - other[1]
        if abs(gap) > args.gap:
            continue
        rest = text
        for f in sorted(spans, key=lambda f: -f.start):
            rest = rest[: f.start] + rest[f.end :]
        rest = " ".join(rest.split())
        own = semantic.similar_to(semantic.encoder.encode_query(rest), 40)
        ranks = [e for e, _ in own]
        off = case.kind in OFF_TOPIC_KINDS
        verdict = "off" if off else "right" if case.accepts(result.entry.id) else "wrong"
        ids = index.entries
        print(
            json.dumps(
                {
                    "slice": case.slice,
                    "kind": case.kind,
                    "verdict": verdict,
                    "want": None if off else [case.expected, *case.also],
                    "card": result.entry.id,
                    "strategy": result.strategy,
                    "asked": ids[seen["asked"]].id if seen["asked"] is not None else None,
                    "gap": round(gap, 4),
                    "other": ids[other[0]].id,
                    "meaning": [(ids[e].id, round(c, 3)) for e, c in similar[:4]],
                    "text": text,
                    "rest": rest,
                    "rest_rank": ranks.index(card) + 1 if card in ranks else None,
                    "rest_card_cos": round(dict(own).get(card, 0.0), 3),
                    "rest_first": [(ids[e].id, round(c, 3)) for e, c in own[:3]],
                    "rest_other_rank": ranks.index(other[0]) + 1 if other[0] in ranks else None,
                    "rest_other_cos": round(dict(own).get(other[0], 0.0), 3),
                    "final_offers": [s.id for s in result.suggestions[:3]],
                }
            ),
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
