"""Every relevance row over 250 characters (the only rows task long71's change can touch: it
reads texts of fusion.CLAUSED_CHARS or more, normalised), searched with the branch's code and
tallied per slice as the report does (right card, on-topic wrong card, off-topic card, right
among the card and first three offers). `--save FILE` writes the per-row outcomes; `--against
FILE` compares with a saved run and prints per-slice totals of both, tuning rows that changed by
text, held-out ones only counted. `--plain` searches without the clause vote (main's ranking)
for a baseline."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bot.search.index as index_module  # noqa: E402
from bench.relevance_report import HELD_OUT, SETS  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.relevance import Case, load_cases  # noqa: E402

LONG = 250


def outcome(case: Case, index: SearchIndex) -> tuple[str, bool]:
    result = index.search(case.query)
    card = result.entry.id if result.entry else None
    if case.expected is None:
        return ("ok" if card is None or case.accepts(card) else "off"), False
    near = any(case.accepts(i) for i in [card, *(s.id for s in result.suggestions[:3])])
    return ("nocard" if card is None else "right" if case.accepts(card) else "wrong"), near


def tally(rows: dict[str, list]) -> dict[str, Counter[str]]:
    per: dict[str, Counter[str]] = {}
    for part, what, near in rows.values():
        c = per.setdefault(part, Counter())
        c[what] += 1
        c["card3"] += near
    return per


def line(c: Counter[str]) -> str:
    return f"{c['right']} / {c['wrong']} / {c['off']}, card/3 {c['card3']}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--save")
    parser.add_argument("--against")
    parser.add_argument("--plain", action="store_true", help="the clause vote out of reach")
    args = parser.parse_args()
    if args.plain:
        index_module.CLAUSED_CHARS = 10**9
    cases = [
        c
        for name in SETS
        for c in load_cases(ROOT / "tests" / "search" / name)
        if len(c.query) > LONG
    ]
    index = SearchIndex.build(load_glossary())
    rows = {}
    for n, case in enumerate(cases):
        what, near = outcome(case, index)
        rows[f"{n}\t{case.slice}\t{case.query}"] = (case.slice, what, near)
    if args.save:
        Path(args.save).write_text(json.dumps(rows))
    print("rows", len(rows))
    if not args.against:
        return
    before = json.loads(Path(args.against).read_text())
    changed: Counter[tuple[str, str, str]] = Counter()
    for key, (part, what, near) in rows.items():
        was = before[key]
        if (was[1], was[2]) != (what, near):
            held = part in HELD_OUT or part == "calib"
            if not held:
                print("tuning", part, repr(key.split("\t")[2][:160]), was[1:], "->", [what, near])
            changed[
                (
                    "held" if held else part,
                    f"{was[1]}{'+3' if was[2] else ''}",
                    f"{what}{'+3' if near else ''}",
                )
            ] += 1
    for key, count in sorted(changed.items()):
        print(*key, count)
    old, new = tally(before), tally(rows)
    groups = {"tuning": Counter(), "held": Counter()}
    ogroups = {"tuning": Counter(), "held": Counter()}
    for part in new:
        g = "held" if part in HELD_OUT or part == "calib" else "tuning"
        groups[g].update(new[part])
        ogroups[g].update(old[part])
        if old[part] != new[part]:
            print(part, line(old[part]), "->", line(new[part]))
    for g in groups:
        print(g, line(ogroups[g]), "->", line(groups[g]))


if __name__ == "__main__":
    main()
