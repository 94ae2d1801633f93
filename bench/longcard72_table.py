"""What the search knows on every long tuning row the clause vote reads, and which card rule on
the vote's scale would card its right firsts (task longcard72, issue #12).

    OPENBLAS_NUM_THREADS=1 python bench/longcard72_table.py --save /tmp/table.json
    python bench/longcard72_table.py --load /tmp/table.json

Tuning slices only (dev.., everyday, everyday2, everyday3, chat): held-out rows are refused.
Every row over 250 characters is one record, read by wrapping `SemanticIndex.similar_by_clauses`
and `fusion.fuse` as `index` calls them (nothing in `bot/search` changes): the averaged
ranking's first two, the whole text's and the vote's own first two, the weight the best clause
holds of the vote, the lexical pool's first before the meaning is folded in, whether the text is
read as a long description, the card given; and whether the averaged first is the expected
entry. Rules are then tried offline on the rows with no card: those they would card, as
right / wrong / off-topic."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bot.search.index as index_module  # noqa: E402
from bench.relevance_report import SETS  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.relevance import load_cases  # noqa: E402
from bot.search.semantic import SemanticIndex  # noqa: E402

LONG = 250
Record = dict[str, Any]


def tuning(part: str) -> bool:
    return part.startswith("dev") or part in {"everyday", "everyday2", "everyday3", "chat"}


seen: dict[str, Any] = {}
_by_clauses = SemanticIndex.similar_by_clauses
_fuse = index_module.fuse


def by_clauses(self: SemanticIndex, whole: Any, clauses: Any, limit: int, floor: float) -> Any:
    out = _by_clauses(self, whole, clauses, limit, floor)
    if "vote" not in seen:
        cosines = self._entry_cosines(np.vstack([whole, clauses]))
        weights = np.clip(cosines[1:].max(axis=1) - floor, 0.0, None) ** 2
        vote = weights @ cosines[1:] / weights.sum() if weights.any() else cosines[0] * 0
        top = lambda s: [(int(p), float(s[p])) for p in np.argsort(-s, kind="stable")[:2]]  # noqa: E731
        seen["vote"] = {
            "whole": top(cosines[0]),
            "vote": top(vote),
            "share": float(weights.max() / weights.sum()) if weights.any() else 0.0,
            "clauses": len(clauses),
            "voting": int((weights > 0).sum()),
        }
    return out


def fuse(pool: Any, similar: Any, **kw: Any) -> None:
    if "fuse" not in seen:
        ranked = pool.ranked()
        seen["fuse"] = {
            "similar": [(int(e), float(c)) for e, c in similar[:3]],
            "lex": (int(ranked[0][0]), float(ranked[0][1].score), ranked[0][1].strategy)
            if ranked
            else None,
            "long_description": bool(kw.get("long_description")),
            "question": bool(kw.get("question")),
            "asked": kw.get("asked_about") is not None,
            "unnamed": bool(kw.get("unnamed")),
        }
    _fuse(pool, similar, **kw)


def collect() -> list[Record]:
    SemanticIndex.similar_by_clauses = by_clauses  # type: ignore[method-assign]
    index_module.fuse = fuse  # type: ignore[assignment]
    cases = [
        c
        for name in SETS
        for c in load_cases(ROOT / "tests" / "search" / name)
        if len(c.query) > LONG and tuning(c.slice)
    ]
    index = SearchIndex.build(load_glossary())
    ids = [e.id for e in index.entries]
    records = []
    for case in cases:
        seen.clear()
        result = index.search(case.query)
        if "vote" not in seen or "fuse" not in seen:
            continue
        v, f = seen["vote"], seen["fuse"]
        first = ids[f["similar"][0][0]]
        records.append(
            {
                "slice": case.slice,
                "query": case.query,
                "expected": case.expected,
                "off": case.expected is None,
                "first": first,
                "first_right": case.expected is not None and case.accepts(first),
                "card": result.entry.id if result.entry else None,
                "card_right": bool(result.entry) and case.accepts(result.entry.id),
                "avg1": f["similar"][0][1],
                "avg2": f["similar"][1][1],
                "whole_first": ids[v["whole"][0][0]],
                "whole1": v["whole"][0][1],
                "whole2": v["whole"][1][1],
                "vote_first": ids[v["vote"][0][0]],
                "vote1": v["vote"][0][1],
                "vote2": v["vote"][1][1],
                "share": v["share"],
                "voting": v["voting"],
                "lex_first": ids[f["lex"][0]] if f["lex"] else None,
                "lex_score": f["lex"][1] if f["lex"] else 0.0,
                "lex_strategy": f["lex"][2] if f["lex"] else None,
                "long_description": f["long_description"],
                "question": f["question"],
                "asked": f["asked"],
                "unnamed": f["unnamed"],
            }
        )
    return records


def verdict(r: Record) -> str:
    return "off" if r["off"] else "right" if r["first_right"] else "wrong"


def tally(rows: list[Record], rule: Callable[[Record], bool]) -> tuple[int, int, int]:
    hit = [verdict(r) for r in rows if rule(r)]
    return hit.count("right"), hit.count("wrong"), hit.count("off")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--save")
    parser.add_argument("--load")
    parser.add_argument("--rows", action="store_true")
    args = parser.parse_args()
    records = json.loads(Path(args.load).read_text()) if args.load else collect()
    if args.save:
        Path(args.save).write_text(json.dumps(records))
    nocard = [r for r in records if r["card"] is None]
    print("long tuning rows the vote read", len(records), "no card", len(nocard))
    print("no-card rows by the averaged first: right / wrong / off", tally(nocard, lambda r: True))
    if args.rows:
        for r in sorted(nocard, key=lambda r: -r["avg1"]):
            print(
                verdict(r)[:5],
                f"avg {r['avg1']:.3f} lead {r['avg1'] - r['avg2']:.3f}",
                f"whole {r['whole1']:.3f}/{r['whole1'] - r['whole2']:.3f}",
                f"vote {r['vote1']:.3f}/{r['vote1'] - r['vote2']:.3f} share {r['share']:.2f}",
                "W" if r["whole_first"] == r["first"] else "-",
                "V" if r["vote_first"] == r["first"] else "-",
                "L" if r["lex_first"] == r["first"] else "-",
                "D" if r["long_description"] else "q" if r["question"] else "-",
                r["slice"],
                r["first"],
                r["expected"],
            )
    rules: dict[str, Callable[[Record], bool]] = {}
    for cos in (0.45, 0.47, 0.49, 0.5, 0.52, 0.55):
        for lead in (0.0, 0.02, 0.04, 0.06, 0.08, 0.1):
            for agree in ("", "W", "V", "WV", "L", "W|L"):

                def rule(
                    r: Record, cos: float = cos, lead: float = lead, agree: str = agree
                ) -> bool:
                    ok = r["avg1"] >= cos and r["avg1"] - r["avg2"] >= lead
                    w = r["whole_first"] == r["first"]
                    v = r["vote_first"] == r["first"]
                    lx = r["lex_first"] == r["first"]
                    need = {"": True, "W": w, "V": v, "WV": w and v, "L": lx, "W|L": w or lx}
                    return ok and need[agree]

                rules[f"avg>={cos} lead>={lead} {agree or 'any'}"] = rule
    scored = []
    for name, rule in rules.items():
        right, wrong, off = tally(nocard, rule)
        if right:
            scored.append((right, wrong, off, name))
    for right, wrong, off, name in sorted(
        scored, key=lambda s: (-(s[0] >= 4 * (s[1] + s[2])), -s[0])
    ):
        if right >= 4 * (wrong + off):
            print(f"{right:3d} / {wrong:2d} / {off:2d}  {name}")


if __name__ == "__main__":
    main()
