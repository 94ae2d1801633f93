"""Why a right entry is offered first but gets no card, and which gate let a wrong card through.

    python bench/offer_causes.py [--slices dev,calib,...] [--rows]

Tuning slices only (held-out slices are refused). For every question and description row whose
answer is an offer with the right entry first ("first, no card") or a card for another entry
("wrong card"), it names the step of `SearchIndex._search` that decided it, read by wrapping
the steps (nothing in `bot/search` changes): `_decide`'s reasons (the best score under the card
bar, by the strategy that scored it; a lead under the margin, by the runner-up's strategy; a
sentence far from every entry) and the later steps that turn a card into an offer
(`_narrower_offered`, `_described_offered`, `_tied_offered`, `_unless_everyday`). Counts by
cause; `--rows` lists the rows too.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.relevance_report import HELD_OUT, SETS  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search import index as index_module  # noqa: E402
from bot.search.ranking import MATCH_MARGIN, MATCH_SCORE  # noqa: E402
from bot.search.relevance import OFF_TOPIC_KINDS, load_cases  # noqa: E402

TUNING = (
    "dev",
    "calib",
    "dev2",
    "dev3",
    "dev4",
    "dev5",
    "dev6",
    "dev7",
    "dev8",
    "everyday",
    "chat",
)
CAPPED = MATCH_SCORE - MATCH_MARGIN - 0.1

trace: list[dict[str, Any]] = []


def _decide_reason(pool: Any, far: bool) -> str:
    ranked = pool.ranked()
    if not ranked:
        return "nothing pooled"
    top = ranked[0][1]
    runner = ranked[1][1] if len(ranked) > 1 else None
    if top.score < MATCH_SCORE:
        if top.strategy == "semantic" and abs(top.score - CAPPED) < 0.01:
            return "below bar: meaning capped (cosine < 0.75, lead < 0.2, no agreement)"
        if top.strategy == "semantic":
            return "below bar: meaning uncapped but under 88"
        if top.strategy == "match-term" and abs(top.score - 80.0) < 0.01:
            return "below bar: a name written (mention 80), the meaning not agreeing"
        return f"below bar: {top.strategy} {top.score:.0f}"
    if runner is not None and top.score - runner.score < MATCH_MARGIN:
        return f"margin: {top.strategy} over {runner.strategy} by < 5"
    if far:
        return "far from every entry (OFF_DOMAIN_COSINE)"
    return "near spelling names another"


def _wrap() -> None:
    decide = SearchIndex._decide

    def traced_decide(self, pool, query, normalized, core, *, far=False):  # type: ignore[no-untyped-def]
        result = decide(self, pool, query, normalized, core, far=far)
        ranked = pool.ranked()
        step = {
            "step": "decide",
            "status": result.status,
            "reason": _decide_reason(pool, far) if result.status != "match" else "card",
            "pool": [(self.entries[e].id, round(c.score, 1), c.strategy) for e, c in ranked[:3]],
        }
        trace.append(step)
        return result

    SearchIndex._decide = traced_decide  # type: ignore[method-assign]
    for name in ("_narrower_offered", "_described_offered", "_tied_offered", "_unless_everyday"):
        original = getattr(SearchIndex, name)

        def traced(self, result, *args, _original=original, _name=name):  # type: ignore[no-untyped-def]
            after = _original(self, result, *args)
            if result.status == "match" and after.status != "match":
                trace.append({"step": _name})
            return after

        setattr(SearchIndex, name, traced)
    fuse = index_module.fuse

    def traced_fuse(pool, similar, **options):  # type: ignore[no-untyped-def]
        lead = similar[0][1] - similar[1][1] if len(similar) > 1 else 0.0
        trace.append(
            {
                "step": "fuse",
                "cosine": round(similar[0][1], 3) if similar else 0.0,
                "lead": round(lead, 3),
                "asked": options.get("asked_about"),
            }
        )
        fuse(pool, similar, **options)

    index_module.fuse = traced_fuse


def cause(steps: list[dict[str, Any]]) -> str:
    """The step that made the first `_search` call's answer what it is."""
    demoted = [s["step"] for s in steps if s["step"].startswith("_")]
    if demoted:
        return f"card turned offer: {demoted[0]}"
    decided = next((s for s in steps if s["step"] == "decide"), None)
    if decided is None:
        return "named outright"
    ran = any(s["step"] == "fuse" for s in steps)
    return decided["reason"] + ("" if ran else " [no meaning run]")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--slices", default=",".join(TUNING))
    parser.add_argument("--rows", action="store_true")
    args = parser.parse_args()
    slices = set(args.slices.split(",")) - HELD_OUT
    _wrap()
    index = SearchIndex.build(load_glossary())
    offered: Counter[str] = Counter()
    wrong: Counter[str] = Counter()
    rows: list[str] = []
    for name in SETS:
        for case in load_cases(ROOT / "tests/search" / name):
            if case.slice not in slices:
                continue
            trace.clear()
            result = index.search(case.query)
            steps = trace[: _first_search_end(trace)]
            first = result.best_id
            fuse_step = next((s for s in steps if s["step"] == "fuse"), {})
            detail = f"cos {fuse_step.get('cosine')} lead {fuse_step.get('lead')}"
            pool = next((s["pool"] for s in steps if s["step"] == "decide"), [])
            if case.kind in OFF_TOPIC_KINDS:
                if result.entry is not None:
                    wrong[f"off-topic card: {_card_gate(steps, result)}"] += 1
                    rows.append(f"OFFTOPIC-CARD {case.slice} {case.query!r} -> {first} {pool}")
                continue
            if result.entry is None and case.accepts(first):
                c = cause(steps)
                offered[c] += 1
                rows.append(f"FIRST {case.slice} [{c}] {case.query!r} -> {first} {detail} {pool}")
            elif result.entry is not None and not case.accepts(result.entry.id):
                g = _card_gate(steps, result)
                wrong[g] += 1
                rows.append(
                    f"WRONG {case.slice} [{g}] {case.query!r} -> {result.entry.id} "
                    f"(want {case.expected}) {detail} {pool}"
                )
    print("== right entry offered first, no card: by cause")
    for c, n in offered.most_common():
        print(f"{n:>5}  {c}")
    print(f"{sum(offered.values()):>5}  all")
    print("== wrong cards (and off-topic cards): by the gate that let them through")
    for c, n in wrong.most_common():
        print(f"{n:>5}  {c}")
    print(f"{sum(wrong.values()):>5}  all")
    if args.rows:
        print("\n".join(sorted(rows)))
    return 0


def _first_search_end(steps: list[dict[str, Any]]) -> int:
    """The steps of the first `_search` call (a comparison searches its other side after)."""
    decides = [i for i, s in enumerate(steps) if s["step"] == "decide"]
    if len(decides) < 2:
        return len(steps)
    after = decides[0] + 1
    while after < len(steps) and steps[after]["step"].startswith("_"):
        after += 1
    return after


def _card_gate(steps: list[dict[str, Any]], result: Any) -> str:
    if result.strategy != "semantic" and not any(s["step"] == "fuse" for s in steps):
        return f"named or lexical: {result.strategy}"
    fuse_step = next((s for s in steps if s["step"] == "fuse"), None)
    if fuse_step is None:
        return f"lexical, no meaning run: {result.strategy}"
    asked = "asked-about name" if fuse_step["asked"] else "no name asked"
    return f"fused: {result.strategy}, {asked}"


if __name__ == "__main__":
    raise SystemExit(main())
