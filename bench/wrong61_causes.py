"""Every wrong card and every off-topic card on the tuning slices, with the step that made it
(task wrong61, issue #12).

    OPENBLAS_NUM_THREADS=1 python bench/wrong61_causes.py [--slices dev,...] [--rows]

Tuning slices only (held-out slices are refused by `offer_causes.traced_start`). The search's
steps are traced as `bench/offer_causes.py` traces them (`card_cause`: the step in `fuse` or
before it that made the card), plus the later rules (`offer_causes.LATER`) where one of them
turned the answer into a card or changed the card. Each row is counted as `sums.py` counts it
(descriptions and questions: right and wrong cards; off-topic rows: cards) and grouped by the
deciding step and by shape: its kind, a name written or not, the meaning's first cosine and lead,
the text's field cosine, and whether the right entry would stand in the first three were the
card an offer (the card first, then today's offers).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import offer_causes  # noqa: E402
from bench.offer_causes import card_cause, traced_cases, traced_start  # noqa: E402
from bot.search.relevance import OFF_TOPIC_KINDS  # noqa: E402

TUNING = (*offer_causes.TUNING, "dev19", "dev20")
COUNTED = {"description", "question"}


def later_card(steps: list[dict[str, Any]]) -> str | None:
    """The later rule that made or changed the card, if one did."""
    for s in steps:
        gave, given = s.get("gave"), s.get("given")
        if s["step"] != "later" or gave.status != "match" or gave.entry is None:
            continue
        if given.entry is None or given.entry.id != gave.entry.id:
            return str(s["rule"])
    return None


def features(
    case: Any, result: Any, steps: list[dict[str, Any]], index: Any, later: str | None
) -> dict[str, Any]:
    """A card's row for what-ifs: its verdict, the step that made it, the meaning's ten, the
    card's lexical candidate before and after the meaning was folded in, the name asked."""
    off = case.kind in OFF_TOPIC_KINDS
    fused = next((s for s in steps if s["step"] == "fuse"), None)
    row: dict[str, Any] = {
        "slice": case.slice,
        "kind": case.kind,
        "query": case.query,
        "words": len(case.query.split()),
        "verdict": "off-topic" if off else "right" if case.accepts(result.entry.id) else "wrong",
        "right": [] if off else [case.expected, *case.also],
        "card": result.entry.id,
        "strategy": result.strategy,
        "score": result.score,
        "offers": [s.id for s in result.suggestions],
        "decided": f"later rule {later}" if later else card_cause(steps, result, index),
    }
    if fused is not None:
        card = index.positions[result.entry.id]
        before, after = fused["before"].get(card), fused["after"].get(card)
        row.update(
            similar=[(index.entries[e].id, round(c, 4)) for e, c in fused["similar"]],
            field=round(fused.get("field", 0.0), 4),
            asked=None if not fused["asked"] else index.entries[fused["asked"][0]].id,
            written=sorted(index.entries[e].id for e in fused["written"]),
            before=None if before is None else (before.strategy, round(before.score, 2)),
            after=None if after is None else (after.strategy, round(after.score, 2)),
            pool=[
                (index.entries[e].id, round(c.score, 2), c.strategy)
                for e, c in sorted(fused["after"].items(), key=lambda i: -i[1].score)[:5]
            ],
        )
    return row


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", action="store_true")
    parser.add_argument("--dump", help="write every card's features here, a JSON object a line")
    args, slices, index = traced_start(parser, TUNING)
    dumped: list[str] = []
    offer_causes.wrap_rules(offer_causes.LATER, "later", changed_only=True)
    groups: dict[str, Counter[str]] = defaultdict(Counter)
    totals: Counter[str] = Counter()
    rows: list[str] = []
    for case, result, steps in traced_cases(index, slices, offer_causes.trace):
        off = case.kind in OFF_TOPIC_KINDS
        if result.entry is None or not (off or case.kind in COUNTED):
            if not off and case.kind in COUNTED:
                totals["no card"] += 1
            continue
        later = later_card(steps)
        if args.dump:
            dumped.append(json.dumps(features(case, result, steps, index, later)))
        if not off and case.accepts(result.entry.id):
            totals["right"] += 1
            continue
        verdict = "off-topic" if off else "wrong"
        totals[verdict] += 1
        decided = f"later rule {later}" if later else card_cause(steps, result, index)
        fused = next((s for s in steps if s["step"] == "fuse"), {})
        named = "name written" if fused.get("written") else "no name written"
        offers = [result.entry.id, *[s.id for s in result.suggestions[:2]]]
        kept = (
            "-"
            if off
            else ("right in 3 as offer" if any(map(case.accepts, offers)) else "right lost")
        )
        field = fused.get("field")
        groups[decided][f"{verdict} {case.kind} {named}"] += 1
        cos = fused.get("cosine")
        first = index.entries[fused["similar"][0][0]].id if fused.get("similar") else "-"
        rows.append(
            f"{verdict:<9} {case.slice:<9} {case.kind:<11} [{decided}] {named}; {kept}; "
            f"{result.entry.id} {result.strategy} {result.score:.1f} (want {case.expected}); "
            f"meaning #1 {first} cos {cos} lead {fused.get('lead')} field "
            f"{'-' if field is None else f'{field:.3f}'} | {case.query[:110]!r}"
        )
    if args.dump:
        Path(args.dump).write_text("\n".join(dumped) + "\n")
    print("== totals (descriptions and questions; off-topic rows)")
    print("  ".join(f"{k} {n}" for k, n in sorted(totals.items())))
    print("== wrong and off-topic cards by the step that made them, then by shape")
    for decided, shapes in sorted(groups.items(), key=lambda g: -sum(g[1].values())):
        print(f"{sum(shapes.values()):>5}  {decided}")
        for shape, n in shapes.most_common():
            print(f"{n:>11}  {shape}")
    if args.rows:
        print("\n".join(sorted(rows)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
