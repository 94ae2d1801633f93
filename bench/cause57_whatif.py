"""What-if counts for the three biggest causes of dev20's misses (task cause57), over every
tuning slice, read from one traced run of today's search (no rule changes; held-out slices are
refused as `bench/offer_causes.py` refuses them).

    OPENBLAS_NUM_THREADS=1 python bench/cause57_whatif.py [--slices dev,...,dev20]

1. "First, no card": a card for the meaning's first where the answer has none, from a cosine
   and a lead over the meaning's second (the grid below), with or without the words' agreement
   (the lexical stages pooled it: "yes"; put it first: "first"). Counts right cards gained, wrong cards made (on-topic) and
   off-topic cards made, dev20 apart.
2. "None, all under the offer floor" (`SUGGEST_SCORE` 75, cosine 0.45): offers from a lower
   cosine where the answer is "none"; counts rows whose right entry the meaning's first three
   would then show, and off-topic rows that would get offers.
3. Wrong cards: an offer instead of a card the meaning does not rank first, where its first
   leads the card by a cosine gap (grid); counts wrong cards turned into offers and right cards
   lost.

First-order only: a row's answer is changed by the one rule and nothing later runs on it.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import offer_causes  # noqa: E402
from bench.offer_causes import TUNING, row_verdict, traced_cases, traced_start  # noqa: E402
from bot.search.relevance import OFF_TOPIC_KINDS  # noqa: E402

COSINES = (0.5, 0.55, 0.58, 0.62, 0.66)
LEADS = (0.04, 0.06, 0.08, 0.1, 0.12)
FLOORS = (0.45, 0.42, 0.4, 0.38)
GAPS = (0.05, 0.1, 0.15, 0.2)


def _words_first(before: dict[int, Any]) -> int | None:
    """The lexical stages' first entry (by score) before the meaning was folded in."""
    return max(before, key=lambda e: before[e].score) if before else None


def record(case: Any, result: Any, steps: list[dict[str, Any]], index: Any) -> dict[str, Any]:
    fused = next((s for s in steps if s["step"] == "fuse"), None)
    similar = fused["similar"] if fused else []
    accepts = [index.positions[i] for i in (case.expected, *case.also) if i in index.positions]
    card = index.positions[result.entry.id] if result.entry else None
    ranks = {e: r for r, (e, _) in enumerate(similar)}
    cosines = dict(similar)
    return {
        "slice": case.slice,
        "off": case.kind in OFF_TOPIC_KINDS,
        "verdict": row_verdict(case, result),
        "first": similar[0][0] if similar else None,
        "cos": similar[0][1] if similar else 0.0,
        "lead": fused["lead"] if fused else 0.0,
        "found": bool(fused and similar and similar[0][0] in fused["before"]),
        "words_first": bool(fused and similar and _words_first(fused["before"]) == similar[0][0]),
        "right_first": bool(similar and similar[0][0] in accepts),
        "right_in_3": any(e in accepts for e, _ in similar[:3]),
        "card_rank": ranks.get(card) if card is not None else None,
        "card_cos": cosines.get(card, 0.0) if card is not None else None,
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    _, slices, index = traced_start(parser, (*TUNING, "dev19", "dev20"))
    rows = [
        record(case, result, steps, index)
        for case, result, steps in traced_cases(index, slices, offer_causes.trace)
    ]
    print(f"{len(rows)} rows over {len(slices)} slices")
    base = Counter(r["verdict"] for r in rows)
    print("today:", dict(sorted(base.items())))

    print("\n== 1. card the meaning's first where there is no card (no-card rows only)")
    print("cos   lead  words | right+ wrong+ off+ | dev20: right+ wrong+")
    for found in ("first", True, False):
        for c in COSINES:
            for lead in LEADS:
                gain: Counter[str] = Counter()
                for r in rows:
                    if r["verdict"] in ("right", "wrong", "off-card") or r["first"] is None:
                        continue
                    if r["cos"] < c or r["lead"] < lead:
                        continue
                    if (found == "first" and not r["words_first"]) or (
                        found is True and not r["found"]
                    ):
                        continue
                    key = "off" if r["off"] else "right" if r["right_first"] else "wrong"
                    gain[key] += 1
                    if r["slice"] == "dev20" and not r["off"]:
                        gain["d20 " + key] += 1
                print(
                    f"{c:<5} {lead:<5} {found if found == 'first' else 'yes' if found else 'any':<5} | {gain['right']:>6} "
                    f"{gain['wrong']:>6} {gain['off']:>4} | {gain['d20 right']:>12} "
                    f"{gain['d20 wrong']:>6}"
                )

    print("\n== 2. offers from a lower cosine where the answer is 'none'")
    print("floor | right in first 3 (all, dev20) | off-topic rows offered")
    for floor in FLOORS:
        right = sum(
            1
            for r in rows
            if r["verdict"] == "none" and not r["off"] and r["cos"] >= floor and r["right_in_3"]
        )
        d20 = sum(
            1
            for r in rows
            if r["verdict"] == "none"
            and not r["off"]
            and r["cos"] >= floor
            and r["right_in_3"]
            and r["slice"] == "dev20"
        )
        off = sum(1 for r in rows if r["off"] and r["verdict"] == "off-ok" and r["cos"] >= floor)
        print(f"{floor:<5} | {right:>5} {d20:>5} | {off:>5} (of all off-topic rows with no card)")

    print("\n== 3. a card the meaning does not rank first, its first ahead by a gap: an offer")
    print("gap  | wrong->offer (dev20) | right lost (dev20) | off-topic cards undone")
    for gap in GAPS:
        count: Counter[str] = Counter()
        for r in rows:
            if r["card_rank"] == 0 or r["verdict"] not in ("right", "wrong", "off-card"):
                continue
            if r["cos"] - (r["card_cos"] or 0.0) < gap:
                continue
            count[r["verdict"]] += 1
            if r["slice"] == "dev20":
                count["d20 " + r["verdict"]] += 1
        print(
            f"{gap:<4} | {count['wrong']:>5} ({count['d20 wrong']:>2}) | {count['right']:>5} "
            f"({count['d20 right']:>2}) | {count['off-card']:>3}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
