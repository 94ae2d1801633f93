"""Which rule withholds the card from a question whose first offer is right, and what relaxing
that rule would card wrongly.

    OPENBLAS_NUM_THREADS=1 python bench/promote70_causes.py [--slices dev,dev2,...] [--rows]
        [--kinds question]

Tuning slices only (held-out slices are refused). For every row of `--kinds` (questions by
default) answered by an offer with no card, names the rule that withheld the card, read by
`offer_causes`' tracing (nothing in `bot/search` changes): `_decide`'s reasons (under the card
bar by the strategy that scored it, a lead under the margin, far from every entry), a
demoting rule after it (`offer_causes.DEMOTING`), or a later rule that turned the card into an
offer (`offer_causes.LATER`, traced where it changed the answer). Each cause is counted three
ways: the right entry first ("right"), another entry first for an on-topic row ("wrong": the
card a relaxed rule would give wrongly) and the first offer of an off-topic row ("off-topic").
The last column is right per wrong-or-off-topic: the rate relaxing that rule alone could reach
at best.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.offer_causes import (  # noqa: E402
    LATER,
    cause,
    trace,
    traced_cases,
    traced_start,
    wrap_rules,
)
from bot.search.relevance import OFF_TOPIC_KINDS  # noqa: E402

# dev..dev23 and the chat and everyday tuning slices (calib is held out).
TUNING = (
    "dev",
    *(f"dev{n}" for n in range(2, 24)),
    "everyday",
    "everyday2",
    "everyday3",
    "chat",
)


def withheld_by(steps: list[dict[str, Any]]) -> str:
    """The rule that left the first `_search` call's answer without a card."""
    reason = cause(steps)
    if reason == "card":  # `_decide` carded it and a later rule took the card away
        later = [s["rule"] for s in steps if s["step"] == "later" and s["given"].status == "match"]
        return f"card turned offer: {later[0]}" if later else "card turned offer: another step"
    return reason


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", action="store_true")
    parser.add_argument("--kinds", default="question")
    args, slices, index = traced_start(parser, TUNING)
    wrap_rules(LATER, "later", changed_only=True)
    kinds = set(args.kinds.split(","))
    counts: dict[str, Counter[str]] = {}
    rows: list[str] = []
    for case, result, steps in traced_cases(index, slices, trace):
        off_topic = case.kind in OFF_TOPIC_KINDS
        if (case.kind not in kinds and not off_topic) or result.entry or not result.suggestions:
            continue
        first = result.suggestions[0].id
        verdict = "off-topic" if off_topic else "right" if case.accepts(first) else "wrong"
        why = withheld_by(steps)
        counts.setdefault(why, Counter())[verdict] += 1
        pool = next((s["pool"] for s in steps if s["step"] == "decide"), [])
        rows.append(
            f"{verdict.upper()} {case.slice} [{why}] {case.query!r} -> {first} "
            f"(want {case.expected or '-'}) {pool}"
        )
    print(f"== {args.kinds} rows offered with no card, by the rule that withheld the card")
    print(f"{'right':>6}{'wrong':>6}{'off':>6}{'rate':>7}  rule")
    total: Counter[str] = Counter()
    for why, c in sorted(counts.items(), key=lambda i: -i[1]["right"]):
        total.update(c)
        bad = c["wrong"] + c["off-topic"]
        rate = f"{c['right'] / bad:.1f}" if bad else "-"
        print(f"{c['right']:>6}{c['wrong']:>6}{c['off-topic']:>6}{rate:>7}  {why}")
    print(f"{total['right']:>6}{total['wrong']:>6}{total['off-topic']:>6}{'':>7}  all")
    if args.rows:
        print("\n".join(sorted(rows)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
