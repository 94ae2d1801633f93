"""How far the offer threshold moves when a refit has one tuning slice fewer (task calib76, issue
#12 part 2): for calib74's rule (the lowest clean line on the out-of-fold curve,
`calib73_fit.promote_threshold`) and calib76's (its median over slice-level bootstrap resamples,
`calib73_fit.bagged_threshold`), each fitted on every tuning slice and then leaving out each of
the last dev slices in turn; with the records' what-if of each fit against the shipped step
(`calib73_fit.tally`'s counting: right / wrong / off-topic cards, card/3) on the tuning slices,
and on the held-out slices (totals only) for the fit on every tuning slice alone.

    OPENBLAS_NUM_THREADS=1 python bench/calib76_stability.py RECORDS [--leave-out dev26,...]

RECORDS: `calib73_table.py --all --dump FILE` (every slice). Also prints, for information and
not as a rule that may ship, the thresholds at the issue's 1 in 100 and a Platt curve's (the
lowest t whose out-of-fold offers, recalibrated by a two-number logistic fit of right against
logit(P), are expected wrong or off-topic at most the share).
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
from bot.search import calibration  # noqa: E402

Record = dict[str, Any]
DEFAULT_LEAVE_OUT = "dev27,dev28,dev29,dev30"


def counted(every: list[Record], carded: Callable[[Record], bool]) -> dict[str, Counter]:
    """Per slice, right / wrong / off cards and card/3 where an offer is carded by `carded`
    (a card stays a card: no demotion)."""
    out: dict[str, Counter] = {}
    for r in every:
        c = out.setdefault(r["slice"], Counter())
        if r["verdict"] != "nothing":
            fitting.tally(c, r, r["card"] or carded(r))
    return out


def summed(per_slice: dict[str, Counter], tuning: bool) -> Counter:
    names = [s for s in per_slice if (shown_row_by_row(s) if tuning else s.startswith("test"))]
    return sum((per_slice[s] for s in names), Counter())


def shown(c: Counter) -> str:
    return f"{c['right']:,} / {c['wrong']} / {c['off']}, card/3 {c['card3']:,}"


def platt_threshold(offers: list[Record], p: np.ndarray, share: float) -> float:
    """For information: the lowest t at which the offers with out-of-fold P >= t, recalibrated by
    a logistic fit of right on logit(P) over every offer, are expected bad at most `share`."""
    logit = np.log(p / (1 - p))[:, None]
    y = np.array([r["verdict"] == "right" for r in offers], dtype=float)
    q = fitting.predict(fitting.fit(logit, y), logit)
    order = np.argsort(-p)
    bad = np.cumsum(1 - q[order]) / np.arange(1, len(p) + 1)
    ok = np.nonzero(bad <= share)[0]
    return float(p[order][ok.max()]) if len(ok) else 1.01


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("records")
    parser.add_argument("--leave-out", default=DEFAULT_LEAVE_OUT)
    parser.add_argument("--share", type=float, default=0.0430)
    parser.add_argument("--bags", type=int, default=fitting.BAGS)
    args = parser.parse_args()
    every = fitting.load(args.records)
    tuning = fitting.tuning(every)
    shipped = counted(
        every,
        lambda r: calibration.p_right(fitting.values(r)) >= calibration.OFFER_CARDED,
    )
    print(f"shipped step: tuning {shown(summed(shipped, True))}")
    print(f"shipped step: held out {shown(summed(shipped, False))}", flush=True)
    print(
        "| fitted on | offers r / w / off | rule | threshold | bags: 10% / 25% / 75% / 90%, none "
        "| tuning right / wrong / off, card/3 |"
    )
    print("|---|---|---|---|---|---|")
    for leave in [None, *filter(None, args.leave_out.split(","))]:
        offers = [r for r in tuning if not r["card"] and r["slice"] != leave]
        x = np.array([fitting.values(r) for r in offers])
        y = np.array([r["verdict"] == "right" for r in offers], dtype=float)
        model = fitting.fit(x, y)
        p = fitting.out_of_fold(offers)
        bags = np.array(fitting.bag_thresholds(offers, args.share, args.bags))
        spread = " / ".join(f"{v:.3f}" for v in np.quantile(bags, [0.1, 0.25, 0.75, 0.9]))
        spread += f", {int((bags > 1).sum())}"
        rules = {
            "calib74": (fitting.promote_threshold(offers, p, args.share), ""),
            "calib76": (float(np.median(bags)), spread),
        }
        c = Counter(r["verdict"] for r in offers)
        label = "every tuning slice" if leave is None else f"without {leave}"
        for rule, (t, note) in rules.items():
            after = counted(every, lambda r, t=t, m=model: carded(m, r, t))
            print(
                f"| {label} | {c['right']} / {c['wrong']} / {c['off']} | {rule} | {t:.3f} | {note} "
                f"| {shown(summed(after, True))} |",
                flush=True,
            )
            if leave is None:
                print(f"  held out, {rule} {t:.3f}: {shown(summed(after, False))}", flush=True)
        if leave is None:
            strict = fitting.bag_thresholds(offers, 0.01, args.bags)
            print(
                f"  for information: at 1% calib74 {fitting.promote_threshold(offers, p, 0.01):.3f},"
                f" calib76 {np.median(strict):.3f}; Platt at {args.share}: "
                f"{platt_threshold(offers, p, args.share):.3f}, at 1%: "
                f"{platt_threshold(offers, p, 0.01):.3f}",
                flush=True,
            )
    return 0


def carded(model: Any, r: Record, t: float) -> bool:
    return float(fitting.predict(model, np.array([fitting.values(r)]))[0]) >= t


if __name__ == "__main__":
    raise SystemExit(main())
