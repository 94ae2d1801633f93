"""The other half once more (task calib76, item 4): an unsure card demoted to an offer of the same
entry first, where the offer model (fitted on every tuning slice's offers, never on a card, so
every card is out of its sample) gives the card's first choice a low P, among lone cards (no
offer beside it) or cards with a weak lead (the lexical margin over the next choice, or the
meaning's lead over its second). Counted from `calib73_table.py --all` records as
`calib73_fit.tally` counts them: right cards lost, wrong and off-topic cards removed, card/3
(the entry among the first three shown) lost. The ship rule asks for 4 bad removed per right
lost and card/3 not lower.

    OPENBLAS_NUM_THREADS=1 python bench/calib76_demote.py RECORDS [--held-out SUBSET:T]

Tuning curves only by default; `--held-out SUBSET:T` prints the held-out totals (never a row) of
one rule fixed on tuning.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import calib73_fit as fitting  # noqa: E402
from bench.relevance_report import shown_row_by_row  # noqa: E402
from bot.search.calibration import NAMED  # noqa: E402

Record = dict[str, Any]

SUBSETS: dict[str, Callable[[Record], bool]] = {
    "every unnamed card": lambda r: r["strategy"] not in NAMED,
    "lone (no offer beside it)": lambda r: r["strategy"] not in NAMED and r["n_offers"] == 0,
    "lexical margin < 5": lambda r: r["strategy"] not in NAMED and r["margin"] < 5,
    "meaning's lead < 0.03": lambda r: (
        r["strategy"] not in NAMED and r["lead"] is not None and r["lead"] < 0.03
    ),
    "lone, meaning's lead < 0.05": lambda r: (
        r["strategy"] not in NAMED
        and r["n_offers"] == 0
        and (r["lead"] is None or r["lead"] < 0.05)
    ),
}


def moved(cards: list[Record], p: np.ndarray, t: float) -> Counter:
    c: Counter = Counter()
    for r, q in zip(cards, p, strict=True):
        if q < t:
            c[r["verdict"]] += 1
            c["card3_lost"] += bool(r["card3_as_card"] and not r["card3_as_offer"])
    return c


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("records")
    parser.add_argument("--held-out", help="SUBSET:T, the one rule fixed on tuning")
    args = parser.parse_args()
    every = fitting.load(args.records)
    tuning = fitting.tuning(every)
    offers = [r for r in tuning if not r["card"]]
    model = fitting.fit(
        np.array([fitting.values(r) for r in offers]),
        np.array([r["verdict"] == "right" for r in offers], dtype=float),
    )

    def p_of(rows: list[Record]) -> np.ndarray:
        return fitting.predict(model, np.array([fitting.values(r) for r in rows]))

    if args.held_out:
        name, t = args.held_out.rsplit(":", 1)
        keep = SUBSETS[name]
        for label, pick in (
            ("tuning", shown_row_by_row),
            ("held out", lambda s: s.startswith("test")),
        ):
            cards = [
                r for r in every if pick(r["slice"]) and r["verdict"] != "nothing" and r["card"]
            ]
            cards = [r for r in cards if keep(r)]
            c = moved(cards, p_of(cards), float(t))
            print(
                f"{label}: {name} P < {t}: right lost {c['right']}, wrong removed {c['wrong']}, "
                f"off removed {c['off']}, card/3 lost {c['card3_lost']}"
            )
        return 0
    cards = [r for r in tuning if r["card"]]
    print(f"tuning cards {Counter(r['verdict'] for r in cards)}")
    for name, keep in SUBSETS.items():
        subset = [r for r in cards if keep(r)]
        p = p_of(subset)
        print(f"== {name}: {Counter(r['verdict'] for r in subset)}")
        print(f"  {'P <':>6}{'right':>7}{'wrong':>7}{'off':>5}{'card3':>7}")
        last = None
        for t in sorted({round(float(v), 3) for v in np.quantile(p, np.linspace(0, 1, 41))}):
            c = moved(subset, p, t + 1e-9)
            key = (c["right"], c["wrong"], c["off"])
            if key != last:
                print(f"  {t:>6.3f}{c['right']:>7}{c['wrong']:>7}{c['off']:>5}{c['card3_lost']:>7}")
                last = key
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
