"""Every relevance row of 150 characters or 26 words and more (the rows task long73's clause
vote can reach), searched and tallied per slice as the report does (right card, on-topic wrong
card, off-topic card, right among the card and first three offers).

    OPENBLAS_NUM_THREADS=1 python bench/long73_rows_changed.py --mode plain --save /tmp/plain.json
    OPENBLAS_NUM_THREADS=1 python bench/long73_rows_changed.py --against /tmp/plain.json

`--mode passing` (default): the code as checked out (b9f6d7bd had the vote also where names are
written, from the clauses holding none: `SearchIndex._voting_clauses`, reverted); `plain`: main's rule (the vote only where no name is written);
`floor`: main's rule from `--floor` normalised characters instead of CLAUSED_CHARS. `--against`
prints per-slice totals of both runs, and for tuning rows only the rows that changed, with
what the vote saw (names written, its first and score, the lexical stages' first agreeing).
Held-out rows are only counted."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bot.search.index as index_module  # noqa: E402
from bench.relevance_report import HELD_OUT, SETS  # noqa: E402
from bench.step_whatif import saved_run  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.query import clauses_of, without_chat_markup  # noqa: E402
from bot.search.relevance import Case, load_cases  # noqa: E402

seen: dict[str, Any] = {}
_fuse = index_module.fuse


def fuse(pool: Any, similar: Any, **kw: Any) -> None:
    if "fuse" not in seen:
        ranked = pool.ranked()
        seen["fuse"] = {
            "claused": bool(kw.get("claused")),
            "first": int(similar[0][0]) if similar else None,
            "cos": round(float(similar[0][1]), 3) if similar else 0.0,
            "lex": int(ranked[0][0]) if ranked else None,
            "written": len(kw.get("written") or ()),
        }
    _fuse(pool, similar, **kw)


def mains_rule(query: str, normalized: str, written: Any, names_in: Any) -> list[str]:
    if len(normalized) < index_module.CLAUSED_CHARS or written:
        return []
    phrases = clauses_of(without_chat_markup(query[: index_module.MAX_QUERY]))
    return phrases if len(phrases) > 1 else []


def reached(case: Case) -> bool:
    return len(case.query) >= 150 or len(case.query.split()) >= 26


def outcome(case: Case, index: SearchIndex) -> tuple[str, bool, dict[str, Any]]:
    seen.clear()
    result = index.search(case.query)
    card = result.entry.id if result.entry else None
    diag = dict(seen.get("fuse", {}))
    if diag.get("first") is not None:
        diag["agree"] = diag.pop("lex") == diag["first"]
        diag["first"] = index.entries[diag["first"]].id
    if case.expected is None:
        return ("ok" if card is None or case.accepts(card) else "off"), False, diag
    near = any(case.accepts(i) for i in [card, *(s.id for s in result.suggestions[:3])])
    what = "nocard" if card is None else "right" if case.accepts(card) else "wrong"
    return what, near, diag


def held(part: str) -> bool:
    return part in HELD_OUT or part in {"calib", "everyday-check", "chat-check"}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=("passing", "plain", "floor"), default="passing")
    parser.add_argument("--floor", type=int, default=150)
    parser.add_argument("--save")
    parser.add_argument("--against")
    args = parser.parse_args()
    if args.mode != "passing":  # b9f6d7bd's hook; on main's code pass --mode passing alone
        SearchIndex._voting_clauses = staticmethod(mains_rule)  # type: ignore[method-assign,assignment]
    if args.mode == "floor":
        index_module.CLAUSED_CHARS = args.floor
    index_module.fuse = fuse  # type: ignore[assignment]
    cases = [c for name in SETS for c in load_cases(ROOT / "tests" / "search" / name) if reached(c)]
    index = SearchIndex.build(load_glossary())
    rows = {}
    for n, case in enumerate(cases):
        what, near, diag = outcome(case, index)
        rows[f"{n}\t{case.slice}\t{case.query}"] = (case.slice, what, near, diag)
    saved_run(rows, args.save, args.against, held, 150)


if __name__ == "__main__":
    main()
