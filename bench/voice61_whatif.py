"""What-if (task voice61): the meaning's second reading without the speaker's opening
(`index._unvoiced_agreeing` over `query.without_speaker`) against the same search without it,
on the tuning rows it reads; verdicts (`offer_causes.row_verdict`) tallied, dev20 apart. Held-out
slices are never read. `--take` tries other ways of taking the reading (`ranking`: the
unvoiced text's whole ranking, `_unframed_agreeing`'s way; `weak:C`: also the unvoiced ranking
where the whole text's first is under cosine C, whatever it puts first).

    OPENBLAS_NUM_THREADS=1 python bench/voice61_whatif.py [--rows] [--slices dev20] [--take ranking]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bot.search.index as index_module  # noqa: E402
from bench.offer_causes import TUNING, print_moves, row_verdict  # noqa: E402
from bench.relevance_report import HELD_OUT  # noqa: E402
from bench.semantic_models import tuning_cases  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402


def _taking(how: str):  # type: ignore[no-untyped-def]
    """`_unvoiced_agreeing` as `--take` says."""
    shipped = index_module._unvoiced_agreeing
    if how == "first":
        return shipped

    def whole_ranking(similar, semantic, vector):  # type: ignore[no-untyped-def]
        own = semantic.similar_to(vector, len(similar))
        if own and similar and own[0][0] == similar[0][0] and own[0][1] > similar[0][1]:
            return own
        return similar

    if how == "ranking":
        return whole_ranking
    weak = float(how.split(":")[1])

    def weak_first(similar, semantic, vector):  # type: ignore[no-untyped-def]
        own = semantic.similar_to(vector, len(similar))
        if own and similar and similar[0][1] < weak and own[0][1] > similar[0][1]:
            return own
        return shipped(similar, semantic, vector)

    return weak_first


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", action="store_true")
    parser.add_argument("--slices", default="")
    parser.add_argument("--take", default="first")
    args = parser.parse_args()
    slices = set(args.slices.split(",")) if args.slices else {*TUNING, "dev19", "dev20"}
    slices -= HELD_OUT
    index = SearchIndex.build(load_glossary())
    rule = index_module.without_speaker
    taking = _taking(args.take)
    cut: list[str] = []

    def recorded(text: str, names):  # type: ignore[no-untyped-def]
        out = rule(text, names)
        if out is not None:
            cut.append(text[: len(text) - len(out)])
        return out

    moved: dict[str, Counter[tuple[str, str]]] = {"dev20": Counter(), "other": Counter()}
    opened: Counter[str] = Counter()
    rows: list[str] = []
    for case in tuning_cases(slices):
        if ":" not in case.query and " here" not in case.query.lower():
            continue  # the reading needs one or the other (`query._SPEAKER`)
        cut.clear()
        index_module.without_speaker = recorded
        index_module._unvoiced_agreeing = taking
        after = row_verdict(case, index.search(case.query))
        if not cut:
            continue
        opening = cut[0]
        index_module.without_speaker = lambda text, names: None
        before = row_verdict(case, index.search(case.query))
        side = "dev20" if case.slice == "dev20" else "other"
        opened[side] += 1
        moved[side][(before, after)] += 1
        mark = "" if before == after else " *"
        rows.append(f"{case.slice} {before} -> {after}{mark}: [{opening}] {case.query[:90]!r}")
    index_module.without_speaker = rule
    for side, counts in moved.items():
        print_moves(f"== {side}: {opened[side]} rows read without the opening", counts)
    if args.rows:
        print("\n".join(sorted(rows)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
