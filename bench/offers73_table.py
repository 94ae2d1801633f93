"""Where the right entry stands when a tuning row's answer is no card (task offers73, issue #12:
"the right entry in the card or the first three suggestions").

    OPENBLAS_NUM_THREADS=1 python bench/offers73_table.py [--slices dev,...] [--rows]

Tuning slices only (held-out ones are refused). For every on-topic row answered without a card:
the right entry's place among the offers (1-3, 4-5, absent), its rank in the meaning's ten
(`similar` as `fuse` read it: the whole text's, or the clauses' vote on a long message) and in
the lexical pool before the meaning was folded in, and what stands above it in the offers (the
first offer's related entries, the same category, a name written in the text). Grouped by cause,
largest first. Read by `offer_causes`' tracing: nothing in `bot/search` changes.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.offer72_table import TUNING_SLICES  # noqa: E402
from bench.offer_causes import trace, traced_cases, traced_start  # noqa: E402
from bot.search.relevance import OFF_TOPIC_KINDS  # noqa: E402

# calib is held out (its totals only): not read here
TUNING_ALL = tuple(s for s in (*TUNING_SLICES, "dev27") if s != "calib")


def place(ids: list[str], accepts) -> str:  # type: ignore[no-untyped-def]
    at = next((i for i, e in enumerate(ids) if accepts(e)), None)
    return "absent" if at is None else "1-3" if at < 3 else "4-10"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", action="store_true")
    args, slices, index = traced_start(parser, TUNING_ALL)
    causes: Counter[str] = Counter()
    places: Counter[str] = Counter()
    rows: list[str] = []
    for case, result, steps in traced_cases(index, slices, trace):
        if case.kind in OFF_TOPIC_KINDS or not case.expected or result.entry is not None:
            continue
        offers = [s.id for s in result.suggestions]
        fused = next((s for s in steps if s["step"] == "fuse"), None)
        similar = [index.entries[e].id for e, _ in fused["similar"]] if fused else []
        before = fused["before"] if fused else {}
        lexical = [
            index.entries[e].id for e, _ in sorted(before.items(), key=lambda i: -i[1].score)
        ]
        offer_at = place(offers, case.accepts)
        meaning_at = place(similar, case.accepts) if fused else "no meaning"
        lexical_at = place(lexical, case.accepts) if fused else "-"
        places[f"offers {offer_at:<7} meaning {meaning_at:<10} lexical {lexical_at}"] += 1
        if offer_at == "1-3":
            continue
        # why it is not among the first three
        if not offers:
            why = "no offers at all (status none)"
        elif offer_at == "absent" and meaning_at == "1-3":
            why = f"meaning has it top-3, offers lack it ({len(offers)} offers)"
        elif offer_at == "absent" and meaning_at == "4-10":
            why = f"meaning has it 4-10, offers lack it ({len(offers)} offers)"
        elif offer_at == "absent":
            why = "neither offers nor meaning's ten"
        else:
            first = index.entries[index.positions[offers[0]]]
            above = offers[:3]
            expected = index.entries[index.positions[case.expected]]
            related = sum(a in first.related for a in above[1:])
            same = sum(
                index.entries[index.positions[a]].category == expected.category for a in above
            )
            why = f"offered 4-5 (meaning {meaning_at}; above it: {related} related to first, {same} same category)"
        causes[why] += 1
        rows.append(
            f"{case.slice}\t{why}\t{case.query[:120]!r}\twant {case.expected}\toffers {offers}\tmeaning {similar[:5]}"
        )
    print("== the right entry's place (no card rows)")
    for key, n in places.most_common():
        print(f"{n:>5}  {key}")
    print("== not in the first three: by cause")
    for key, n in causes.most_common():
        print(f"{n:>5}  {key}")
    if args.rows:
        print("\n".join(sorted(rows, key=lambda r: r.split("\t")[1])))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
