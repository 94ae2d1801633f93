"""The what-if of task speed76 (a long message's vector the mean of its clauses', no pass of its
own: `Encoder.encode_claused`, `index.WHOLE_FROM_CLAUSES`), through bench/step_whatif.py's
`saved_run`: every relevance row of every slice of `--min-chars` (240) characters or more as
typed, searched in one process with the switch off (the message embedded beside its clauses, as
before) and on, tallied per slice as the report does (right card, on-topic wrong card, off-topic
card, right among the card and first three offers). Tuning rows that change are printed, held-out
ones (and calib's) only counted.

Rows under `--min-chars` cannot change: the switch is read only on the clause path, which needs
`fusion.CLAUSED_CHARS` (250) characters normalised, and the script counts the rows under
`--min-chars` whose normalised text is that long (0 expected) before searching.

    OPENBLAS_NUM_THREADS=1 python bench/speed76_rows_changed.py [--min-chars 240]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bot.search.index as index_module  # noqa: E402
from bench.relevance_report import HELD_OUT, SETS  # noqa: E402
from bench.step_whatif import saved_run  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.fusion import CLAUSED_CHARS  # noqa: E402
from bot.search.query import normalize, without_chat_markup  # noqa: E402
from bot.search.relevance import Case, load_cases  # noqa: E402


def outcome(case: Case, index: SearchIndex) -> tuple[str, bool]:
    result = index.search(case.query)
    card = result.entry.id if result.entry else None
    if case.expected is None:
        return ("ok" if card is None or case.accepts(card) else "off"), False
    near = any(case.accepts(i) for i in [card, *(s.id for s in result.suggestions[:3])])
    return ("nocard" if card is None else "right" if case.accepts(card) else "wrong"), near


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--min-chars", type=int, default=240)
    args = parser.parse_args()
    every = [c for name in SETS for c in load_cases(ROOT / "tests" / "search" / name)]
    short = [c for c in every if len(c.query) < args.min_chars]
    reach = sum(
        len(normalize(without_chat_markup(c.query[: index_module.MAX_QUERY]))) >= CLAUSED_CHARS
        for c in short
    )
    print(
        f"rows under {args.min_chars} characters: {len(short)}, of them on the clause path: {reach}"
    )
    cases = [c for c in every if len(c.query) >= args.min_chars]
    index = SearchIndex.build(load_glossary())
    runs = []
    for switch in (False, True):
        index_module.WHOLE_FROM_CLAUSES = switch
        rows = {}
        for n, case in enumerate(cases):
            what, near = outcome(case, index)
            rows[f"{n}\t{case.slice}\t{case.query}"] = (case.slice, what, near)
        runs.append(rows)
    with tempfile.TemporaryDirectory() as tmp:
        before = str(Path(tmp) / "before.json")
        saved_run(runs[0], before, None, lambda part: True, 160)
        print(f"switch on (speed76) against off (as before), {len(cases)} rows:")
        saved_run(
            runs[1],
            None,
            before,
            lambda part: part in HELD_OUT or part == "calib",
            160,
            each_held_slice=True,
        )


if __name__ == "__main__":
    main()
