"""Why dev20's rows miss (task cause57): every on-topic row that gets no right card, by the
shape it was written in (`bench/dev20_shapes.py`), with the step that decided it.

    OPENBLAS_NUM_THREADS=1 python bench/cause57_causes.py [--rows]

dev20 is a tuning slice (its rows may be read); this reads no other slice. The search's steps
are traced as `bench/offer_causes.py` traces them, plus the later rules that may turn an answer
into "none" or move a card (wrapped here, nothing in `bot/search` changes). Causes:

- "wrong card: ..." (`offer_causes.card_cause`: the step that made the wrong card);
- "first, no card: ..." (`offer_causes.cause`: the bar, the margin or the rule that held the
  right entry, shown first, back from its card);
- for the rest (right entry second or third, not offered, or nothing at all): the later rule
  that turned the answer into "none" if one did, else where the meaning ranked the right entry
  (its first, or second and third, or fourth to tenth, or not among its ten) and, where the
  meaning put it first, the lexical stage's choice that stood over it.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import offer_causes  # noqa: E402
from bench.dev20_shapes import relabelled  # noqa: E402
from bench.offer_causes import card_cause, cause, row_verdict, traced_start  # noqa: E402
from bot.search.relevance import OFF_TOPIC_KINDS, load_cases  # noqa: E402


def meaning(steps: list[dict[str, Any]], index: Any, wanted: list[str | None]) -> dict[str, Any]:
    """The meaning's first (id, cosine, lead) and the right entry's rank and cosine in its ten."""
    fused = next((s for s in steps if s["step"] == "fuse"), None)
    if fused is None:
        return {"ran": False}
    similar = fused["similar"]
    positions = [index.positions[w] for w in wanted if w and w in index.positions]
    rank, cosine = None, None
    for r, (e, c) in enumerate(similar):
        if e in positions:
            rank, cosine = r + 1, c
            break
    right = next((p for p in positions if p in fused["before"]), None)
    lexical = fused["before"].get(right) if right is not None else None
    return {
        "ran": True,
        "first": index.entries[similar[0][0]].id if similar else None,
        "cos": fused["cosine"],
        "lead": fused["lead"],
        "rank": rank,
        "right_cos": cosine,
        "lexical_right": None if lexical is None else f"{lexical.strategy} {lexical.score:.0f}",
    }


def miss_cause(
    verdict: str, steps: list[dict[str, Any]], result: Any, index: Any, m: dict[str, Any]
) -> str:
    if verdict == "wrong":
        return "wrong card: " + card_cause(steps, result, index)
    if verdict == "offer-first":
        return "first, no card: " + cause(steps) + f" (cos {_cos_band(m)})"
    later = [s for s in steps if s["step"] == "later" and s["gave"].status == "none"]
    if later:
        return f"none by {later[0]['rule']}"
    if not m["ran"]:
        decided = next((s for s in steps if s["step"] == "decide"), None)
        return "no meaning run" + ("" if decided else " (named outright)")
    rank = m["rank"]
    if verdict == "none":  # `_decide`: every score under SUGGEST_SCORE (75: cosine < 0.45)
        return f"none, all under the offer floor; meaning ranks it {_band(rank)}"
    if rank == 1:
        return "meaning #1, a lexical choice stood over it"
    return f"meaning ranks it {_band(rank)}"


def _cos_band(m: dict[str, Any]) -> str:
    """The meaning's first cosine, in the bands the bars cut: the lexical stage put the right
    entry first where the meaning did not."""
    if not m.get("ran"):
        return "no meaning"
    if m["rank"] != 1:
        return f"meaning's first another, right {_band(m['rank'])}"
    c = m["cos"]
    return "<0.5" if c < 0.5 else "0.5-0.58" if c < 0.58 else "0.58-0.66" if c < 0.66 else ">=0.66"


def _band(rank: int | None) -> str:
    if rank is None:
        return "not in its 10"
    return "#1" if rank == 1 else "#2-3" if rank <= 3 else "#4-10"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", action="store_true")
    args, _, index = traced_start(parser, ("dev20",))
    offer_causes.wrap_rules(offer_causes.LATER, "later", changed_only=True)
    cases = relabelled(
        [c for c in load_cases(ROOT / "tests/search/relevance_blind43.tsv") if c.slice == "dev20"]
    )
    table: dict[str, Counter[str]] = defaultdict(Counter)
    verdicts: dict[str, Counter[str]] = defaultdict(Counter)
    rows: list[str] = []
    for case in cases:
        if case.kind in OFF_TOPIC_KINDS:
            continue
        offer_causes.trace.clear()
        result = index.search(case.query)
        steps = list(offer_causes.trace)
        starts = [i for i, s in enumerate(steps) if s["step"] == "search"]
        first_call = steps[: starts[1]] if len(starts) > 1 else steps
        verdict = row_verdict(case, result)
        verdicts[case.kind][verdict] += 1
        if verdict == "right":
            continue
        m = meaning(first_call, index, [case.expected, *case.also])
        # the later rules are read over every call: a comparison's second side is its own call
        c = miss_cause(
            verdict, [*first_call, *[s for s in steps if s["step"] == "later"]], result, index, m
        )
        table[case.kind][c] += 1
        shown = (
            result.entry.id
            if result.entry
            else (result.suggestions[0].id if result.suggestions else "-")
        )
        mean = (
            f"meaning #1 {m['first']} {m['cos']:.3f} lead {m['lead']:.3f}; right "
            f"#{m['rank'] or '-'} {m['right_cos'] or 0:.3f}; lexical {m['lexical_right'] or '-'}"
            if m["ran"]
            else "no meaning"
        )
        rows.append(
            f"{case.kind:<14} {verdict:<11} [{c}] {case.query[:70]!r} -> {shown} "
            f"(want {case.expected}) {mean}"
        )
    kinds = sorted(table)
    print("== verdicts by shape")
    for kind in sorted(verdicts):
        v = verdicts[kind]
        print(
            f"{kind:<16} n {sum(v.values()):>3}  "
            + "  ".join(f"{k} {n}" for k, n in sorted(v.items()))
        )
    print("== misses by shape and cause")
    for kind in kinds:
        print(f"-- {kind} ({sum(table[kind].values())} misses)")
        for c, n in table[kind].most_common():
            print(f"{n:>5}  {c}")
    print("== all shapes")
    total: Counter[str] = Counter()
    for kind in kinds:
        total.update(table[kind])
    for c, n in total.most_common():
        print(f"{n:>5}  {c}")
    if args.rows:
        print("\n".join(sorted(rows)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
