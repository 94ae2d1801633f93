"""Every TUNING row's answer, one line each, to diff two versions of data/ (task pairs59).

    OPENBLAS_NUM_THREADS=1 python bench/pairs59_rows.py [--ids a,b,...] > FILE

Per row: slice, kind, verdict (right / wrong / offtopic-card / offer3 / miss / ok), the card or
the first three offers, the expected entry and the query. Held-out slices are never read
(`relevance_report.HELD_OUT`). With --ids, only rows whose expected entry, card or first three
offers are among those ids (the pairs' own rows, searched all the same).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


from bench.semantic_models import tuning_cases  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ids", default="", help="only rows touching these entry ids")
    args = parser.parse_args()
    ids = set(filter(None, args.ids.split(",")))
    index = SearchIndex.build(load_glossary())
    for case in tuning_cases():
        if case.slice == "all":
            continue
        result = index.search(case.query)
        card = result.entry.id if result.entry else None
        offers = [s.id for s in result.suggestions[:3]]
        if ids and not ({case.expected, card, *offers} & ids):
            continue
        if case.expected is None:
            verdict = "offtopic-card" if card and not case.accepts(card) else "ok"
        elif card:
            verdict = "right" if case.accepts(card) else "wrong"
        else:
            verdict = "offer3" if any(case.accepts(i) for i in offers) else "miss"
        shown = f"card {card}" if card else "offers " + ",".join(offers)
        print("\t".join((case.slice, case.kind, verdict, shown, case.expected or "-", case.query)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
