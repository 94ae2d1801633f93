"""Fit the learned card decision (`bot/search/card_model.py`: an offer's first choice made its
card, a doubted card made an offer) and weigh it out of fold (issue #12, tasks rerank21, rerank22
and rerank23).

    python tools/fit_card_model.py [--table table.tsv] [--write bot/search/card_model.json]

The rows are `bench/card_table.py`'s (tuning slices only: dev, calib, dev2..dev10, everyday,
chat; held-out slices are refused there): the cards and offers the step is asked about. Two
logistic regressions in numpy (standardised features, L2, Newton) of "the first choice is
right", one over the rules' offers and one over their cards. An offer becomes a card from the
threshold `promote`, a card stays one from `keep` (under it: offered). The pair is the one with
the most right cards gained among those adding no wrong card (an off-topic card is wrong),
leave-one-slice-out; it is chosen inside each fold (nested: leave-one-slice-out over the other
slices), so the out-of-fold figure printed is honest; the shipped pair is chosen the same way
over every slice. It writes the weights fitted on every row with how they were made (default
`bot/search/card_model.json`).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.card_table import FEATURES, TUNING, Row, table  # noqa: E402
from bot.search.card_model import WEIGHTS  # noqa: E402

L2 = 3.0  # of 0.3, 1, 3, 10 the nested figure was best here (rerank23)
PROMOTE = (0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1.01)  # 1.01: promote none
KEEP = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6)  # 0: demote none


def fit(x: np.ndarray, y: np.ndarray, l2: float = L2, steps: int = 50) -> np.ndarray:
    """Logistic regression by Newton's method; returns weights, the bias last."""
    xb = np.hstack([x, np.ones((len(x), 1))])
    w = np.zeros(xb.shape[1])
    penalty = np.eye(xb.shape[1]) * l2
    penalty[-1, -1] = 0.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(xb @ w)))
        gradient = xb.T @ (p - y) + penalty @ w
        hessian = (xb * (p * (1 - p))[:, None]).T @ xb + penalty
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def standardised(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    return mean, scale


def probabilities(x: np.ndarray, mean: np.ndarray, scale: np.ndarray, w: np.ndarray) -> np.ndarray:
    z = ((x - mean) / scale) @ w[:-1] + w[-1]
    return 1 / (1 + np.exp(-z))


def changed(
    p: np.ndarray, carded: np.ndarray, right: np.ndarray, promote: float, keep: float
) -> tuple[int, int]:
    """Right and wrong cards gained over the rules' (negative: lost) at the pair."""
    return gained(np.where(carded, p >= keep, p >= promote), carded, right)


def gained(cards: np.ndarray, carded: np.ndarray, right: np.ndarray) -> tuple[int, int]:
    """Right and wrong `cards` over the rules' `carded` ones."""
    gained_right = int((cards & right).sum()) - int((carded & right).sum())
    gained_wrong = int((cards & ~right).sum()) - int((carded & ~right).sum())
    return gained_right, gained_wrong


def best_pair(p: np.ndarray, carded: np.ndarray, right: np.ndarray) -> tuple[float, float]:
    """The pair gaining the most right cards with no more wrong ones (then the fewest wrong,
    then the fewest changed: promote high, keep low)."""

    def merit(pair: tuple[float, float]) -> tuple[int, int, float, float]:
        gained_right, gained_wrong = changed(p, carded, right, *pair)
        return (gained_right if gained_wrong <= 0 else -(10**6), -gained_wrong, pair[0], -pair[1])

    return max(((t, k) for t in PROMOTE for k in KEEP), key=merit)


def out_of_fold(
    x: np.ndarray, y: np.ndarray, carded: np.ndarray, slices: np.ndarray, l2: float
) -> np.ndarray:
    """Each slice's probabilities from the models (offers', cards') fitted on the other slices."""
    p = np.zeros(len(y))
    for held in dict.fromkeys(slices):
        for kind in (False, True):
            train = (slices != held) & (carded == kind)
            test = (slices == held) & (carded == kind)
            if test.any():
                p[test] = fitted(x[train], y[train], l2)(x[test])
    return p


def fitted(x: np.ndarray, y: np.ndarray, l2: float):  # type: ignore[no-untyped-def]
    """A logistic model fitted on `x`, `y`, as a function of other rows' features."""
    mean, scale = standardised(x)
    w = fit((x - mean) / scale, y, l2)
    return lambda rows: probabilities(rows, mean, scale, w)


def nested(
    x: np.ndarray, y: np.ndarray, carded: np.ndarray, slices: np.ndarray, l2: float
) -> tuple[np.ndarray, dict[str, tuple[float, float]]]:
    """Cards out of fold, each slice's pair chosen by leave-one-slice-out over the others."""
    cards = carded.copy()
    chosen = {}
    right = y.astype(bool)
    for held in dict.fromkeys(slices):
        train, test = slices != held, slices == held
        inner = out_of_fold(x[train], y[train], carded[train], slices[train], l2)
        promote, keep = best_pair(inner, carded[train], right[train])
        for kind, threshold in ((False, promote), (True, keep)):
            rows = test & (carded == kind)
            if rows.any():
                model = fitted(x[train & (carded == kind)], y[train & (carded == kind)], l2)
                cards[rows] = model(x[rows]) >= threshold
        chosen[str(held)] = (promote, keep)
    return cards, chosen


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--table", type=Path, default=None, help="a table card_table.py wrote")
    parser.add_argument("--write", type=Path, default=WEIGHTS, help="write the weights here")
    parser.add_argument("--l2", type=float, default=L2)
    args = parser.parse_args()
    rows = [r for r in _rows(args.table) if r.in_scope]
    x = np.array([r.features for r in rows])
    right = np.array([r.right for r in rows])
    carded = np.array([r.main_card for r in rows])
    y = right.astype(float)
    slices = np.array([r.slice for r in rows])
    print(
        f"weighed {len(rows)}: offers {int((~carded).sum())} (first right "
        f"{int((~carded & right).sum())}), cards {int(carded.sum())} (right "
        f"{int((carded & right).sum())}), slices {len(set(slices))}"
    )
    p = out_of_fold(x, y, carded, slices, args.l2)
    print("out of fold (leave one slice out): right/wrong cards gained, promote \\ keep")
    print("      " + "".join(f"{k:>9.2f}" for k in KEEP))
    for t in PROMOTE:
        cells = (changed(p, carded, right, t, k) for k in KEEP)
        print(f"{t:>6.2f}" + "".join(f"{f'{r:+d}/{w:+d}':>9}" for r, w in cells))
    cards, chosen = nested(x, y, carded, slices, args.l2)
    print("nested (pair chosen inside each fold): slice, promote, keep, right, wrong gained")
    for part in dict.fromkeys(slices):
        here = slices == part
        here_right, here_wrong = gained(cards[here], carded[here], right[here])
        promote, keep = chosen[str(part)]
        print(f"  {part:<10}{promote:>6.2f}{keep:>6.2f}{here_right:>+5d}{here_wrong:>+4d}")
    honest = gained(cards, carded, right)
    print(f"  {'all':<22}{honest[0]:>+5d}{honest[1]:>+4d}")
    promote, keep = best_pair(p, carded, right)
    print(f"shipped pair promote {promote}, keep {keep} (leave-one-slice-out over every slice)")
    made = {
        "how": f"python tools/fit_card_model.py --write {_shown(args.write)} --l2 {args.l2}",
        "main": _commit(),
        "slices": sorted(set(slices)),
        "rows": len(rows),
        "out_of_fold_nested": {"gained_right": honest[0], "gained_wrong": honest[1]},
        "features": list(FEATURES),
    }
    for kind, name, threshold in ((False, "offers", promote), (True, "cards", keep)):
        mean, scale = standardised(x[carded == kind])
        weights = fit((x[carded == kind] - mean) / scale, y[carded == kind], args.l2)
        print(f"{name}: standardised weights, largest first:")
        for feature, weight in sorted(
            zip(FEATURES, weights[:-1], strict=True), key=lambda i: -abs(i[1])
        )[:8]:
            print(f"  {feature:<22}{weight:>+8.3f}")
        made[name] = {
            "rows": int((carded == kind).sum()),
            "threshold": threshold,
            "mean": [round(float(v), 6) for v in mean],
            "scale": [round(float(v), 6) for v in scale],
            "weights": [round(float(v), 6) for v in weights[:-1]],
            "bias": round(float(weights[-1]), 6),
        }
    args.write.write_text(json.dumps(made, indent=1) + "\n", encoding="utf-8")
    return 0


def _rows(path: Path | None) -> list[Row]:
    if path is None:
        return table(set(TUNING))
    lines = path.read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    assert tuple(header[4:]) == FEATURES, "the table was written with other features"
    rows = []
    for line in lines[1:]:
        part, kind, card, right, *values = line.split("\t")
        rows.append(Row(part, kind, "", True, card == "1", right == "1", tuple(map(float, values))))
    return rows


def _shown(path: Path) -> Path:
    """`path` from the repository's root, if it is inside it."""
    path = path.resolve()
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


def _commit() -> str:
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return done.stdout.strip()


if __name__ == "__main__":
    raise SystemExit(main())
