"""Task agree59: what the words' and the meaning's agreeing first (`fusion.words_agree`) adds,
by cosine and lead, over the tuning slices (held-out slices are refused).

Every tuning row is searched once with the rule off, noting the rows where it would fire at the
loosest cell (the only rows any cell can move); those rows are searched again with it on at
that cell, and a row moves at a cell where the cosine, lead and field of its first firing call
clear it (the lift reads nothing but the row's own meaning and pool). Counts right cards, on-topic wrong cards and off-topic cards gained or lost against
the rule off, and the right entry as card or among the first three offers; `--rows CELL` lists
the rows that cell moves ("0.5/0.08/0.2": cosine, lead, field).

    OPENBLAS_NUM_THREADS=1 python bench/agree59_grid.py [--slices dev,...] [--rows 0.5/0.08/0.2]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bot.search.fusion as fusion  # noqa: E402
from bench.offer_causes import row_verdict  # noqa: E402
from bench.relevance_report import HELD_OUT  # noqa: E402
from bench.semantic_models import tuning_cases  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.ranking import Candidate  # noqa: E402

TUNING = (
    *("dev", "calib", "chat", "everyday", "everyday2", "everyday3"),
    *(f"dev{n}" for n in range(2, 21)),
)
COSINES = (0.5, 0.55, 0.58, 0.62, 0.66)
LEADS = (0.06, 0.08, 0.1, 0.12)
FIELDS = (-1.0, 0.1, 0.15, 0.2)  # the text's cosine to the field; -1: no gate
SHOWN = ("right", "offer-first", "offer-3")  # the right entry as card or in the first three


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--slices", default=",".join(TUNING))
    parser.add_argument("--rows", default="")
    args = parser.parse_args()
    slices = set(args.slices.split(",")) - HELD_OUT
    index = SearchIndex.build(load_glossary())
    cases = tuning_cases(slices)
    agree = fusion.words_agree
    fired: list[tuple[float, float, float]] = []  # cosine, lead, field of each firing call
    rule_on = [False]

    def recorded(
        similar: Sequence[tuple[int, float]],
        words_first: tuple[int, Candidate] | None,
        field: float,
    ) -> bool:
        if agree(similar, words_first, field):
            fired.append((similar[0][1], similar[0][1] - similar[1][1], field))
            return rule_on[0]
        return False

    fusion.words_agree = recorded  # type: ignore[assignment]
    loose(fusion)
    base: dict[int, tuple[str, str]] = {}
    for n, case in enumerate(cases):
        fired.clear()
        result = index.search(case.query)
        if fired:
            base[n] = (row_verdict(case, result), _shown(result))
    print(f"{len(cases)} rows over {len(slices)} slices; {len(base)} where the loosest cell fires")
    # each such row searched once with the rule on at the loosest cell: it moves at a cell
    # exactly where its first firing call's cosine, lead and field clear it
    rule_on[0] = True
    moved: dict[int, tuple[tuple[float, float, float], tuple[str, str]]] = {}
    for n in base:
        fired.clear()
        result = index.search(cases[n].query)
        now = (row_verdict(cases[n], result), _shown(result))
        if fired and now != base[n]:
            moved[n] = (fired[0], now)
    print(f"{len(moved)} rows whose answer the loosest cell moves")
    print("cos   lead field | right+ right- | wrong+ wrong- | off+ off- | card-or-3 +/-")
    for cosine, lead, field in ((c, le, f) for f in FIELDS for c in COSINES for le in LEADS):
        gain: Counter[str] = Counter()
        listed = args.rows == f"{cosine}/{lead}/{field}"
        for n, ((cos, ahead, leaning), now) in moved.items():
            if cos < cosine or ahead < lead - 1e-9 or leaning < field:
                continue
            was = base[n]
            gain[now[0] + "+"] += 1
            gain[was[0] + "-"] += 1
            gain["shown"] += (now[0] in SHOWN) - (was[0] in SHOWN)
            if listed:
                case = cases[n]
                print(
                    f"  {case.slice}\t{case.expected}\t{was[0]} {was[1]}\t-> {now[0]} {now[1]}"
                    f"\t{cos:.3f} {ahead:.3f} {leaning:.3f}\t{case.kind}\t{case.query}"
                )
        print(
            f"{cosine:<5} {lead:<4} {field:<5} | {gain['right+']:>6} {gain['right-']:>6} | "
            f"{gain['wrong+']:>6} {gain['wrong-']:>6} | {gain['off-card+']:>4} "
            f"{gain['off-card-']:>4} | {gain['shown']:>+5}",
            flush=True,
        )
    return 0


def loose(module: object) -> None:
    """The loosest cell set on `fusion`: every cell's firing rows are among its own."""
    module.WORDS_AGREE_COSINE = min(COSINES)  # type: ignore[attr-defined]
    module.WORDS_AGREE_LEAD = min(LEADS)  # type: ignore[attr-defined]
    module.WORDS_AGREE_FIELD = min(FIELDS)  # type: ignore[attr-defined]


def _shown(result: object) -> str:
    entry = getattr(result, "entry", None)
    if entry is not None:
        return str(entry.id)
    return ",".join(s.id for s in getattr(result, "suggestions", ())[:3])


if __name__ == "__main__":
    raise SystemExit(main())
