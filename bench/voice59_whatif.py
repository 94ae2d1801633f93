"""What-if (task voice59): the speaker's opening cut (`query.without_speaker`) against the same
search without it, on the tuning rows whose opening it cuts; verdicts (`offer_causes.row_verdict`)
tallied, dev20 apart. Held-out slices are never read.

    OPENBLAS_NUM_THREADS=1 python bench/voice59_whatif.py [--rows] [--slices dev20,dev12]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bot.search.index as index_module  # noqa: E402
from bench.offer_causes import TUNING, row_verdict  # noqa: E402
from bench.relevance_report import HELD_OUT, SETS  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.relevance import load_cases  # noqa: E402

ORDER = ("right", "offer-first", "offer-3", "offer-miss", "none", "wrong", "off-ok", "off-card")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", action="store_true")
    parser.add_argument("--slices", default="")
    args = parser.parse_args()
    slices = set(args.slices.split(",")) if args.slices else {*TUNING, "dev19", "dev20"}
    slices -= HELD_OUT
    index = SearchIndex.build(load_glossary())
    rule = index_module.without_speaker
    cut: list[str] = []

    def recorded(text: str, names):  # type: ignore[no-untyped-def]
        out = rule(text, names)
        if out != text:
            cut.append(text[: len(text) - len(out)])
        return out

    moved: dict[str, Counter[tuple[str, str]]] = {"dev20": Counter(), "other": Counter()}
    opened: Counter[str] = Counter()
    rows: list[str] = []
    for name in SETS:
        for case in load_cases(ROOT / "tests/search" / name):
            if case.slice not in slices:
                continue
            if ":" not in case.query and " here" not in case.query.lower():
                continue  # the cut needs one or the other (`query._SPEAKER`)
            cut.clear()
            index_module.without_speaker = recorded
            after = row_verdict(case, index.search(case.query))
            if not cut:
                continue
            opening = cut[0]
            index_module.without_speaker = lambda text, names: text
            before = row_verdict(case, index.search(case.query))
            side = "dev20" if case.slice == "dev20" else "other"
            opened[side] += 1
            moved[side][(before, after)] += 1
            mark = "" if before == after else " *"
            rows.append(f"{case.slice} {before} -> {after}{mark}: [{opening}] {case.query[:90]!r}")
    index_module.without_speaker = rule
    for side, counts in moved.items():
        print(f"== {side}: {opened[side]} rows cut")
        for v in ORDER:
            b = sum(n for (x, _), n in counts.items() if x == v)
            a = sum(n for (_, y), n in counts.items() if y == v)
            if a or b:
                print(f"{v:<12} {b:>4} -> {a:>4}")
        print(
            "moves: " + ", ".join(f"{x}->{y} {n}" for (x, y), n in counts.most_common() if x != y)
        )
    if args.rows:
        print("\n".join(sorted(rows)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
