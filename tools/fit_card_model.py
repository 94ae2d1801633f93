"""Fit the learned card decision (`bot/search/card_model.py`: an offer's first choice made its
card) and weigh it out of fold (issue #12, tasks rerank21 and rerank22).

    python tools/fit_card_model.py [--table table.tsv] [--write bot/search/card_model.json]

The rows are `bench/card_table.py`'s (tuning slices only: dev, calib, dev2..dev10, everyday,
chat; held-out slices are refused there): the offers the step is asked about. The model is one
logistic regression in numpy (standardised features, L2, Newton) of "the first choice is
right"; an offer becomes a card from the threshold `promote`. Scored as right cards minus 3 x
wrong cards (an off-topic card is wrong), leave-one-slice-out. The threshold is chosen inside
each fold (nested: leave-one-slice-out over the other slices), so the out-of-fold figure it
prints is honest; the shipped threshold is chosen the same way over every slice. It writes the
weights fitted on every row with how they were made (default `bot/search/card_model.json`).
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

WRONG_COST = 3.0
L2 = 1.0
THRESHOLDS = (0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1.01)  # 1.01: promote none


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


def tally(cards: np.ndarray, right: np.ndarray) -> tuple[int, int, float]:
    r = int((cards & right).sum())
    w = int((cards & ~right).sum())
    return r, w, r - WRONG_COST * w


def out_of_fold(x: np.ndarray, y: np.ndarray, slices: np.ndarray, l2: float) -> np.ndarray:
    """Each slice's probabilities from a model fitted on the other slices."""
    p = np.zeros(len(y))
    for held in dict.fromkeys(slices):
        train, test = slices != held, slices == held
        mean, scale = standardised(x[train])
        w = fit((x[train] - mean) / scale, y[train], l2)
        p[test] = probabilities(x[test], mean, scale, w)
    return p


def best_threshold(p: np.ndarray, right: np.ndarray) -> float:
    """The threshold with the best score on these probabilities (the higher one on a tie)."""
    return max(THRESHOLDS, key=lambda t: (tally(p >= t, right)[2], t))


def nested(x: np.ndarray, y: np.ndarray, slices: np.ndarray, l2: float) -> tuple[np.ndarray, dict]:
    """Cards out of fold, each slice's threshold chosen by leave-one-slice-out over the others."""
    cards = np.zeros(len(y), dtype=bool)
    chosen = {}
    for held in dict.fromkeys(slices):
        train, test = slices != held, slices == held
        inner = out_of_fold(x[train], y[train], slices[train], l2)
        t = best_threshold(inner, y[train].astype(bool))
        mean, scale = standardised(x[train])
        w = fit((x[train] - mean) / scale, y[train], l2)
        cards[test] = probabilities(x[test], mean, scale, w) >= t
        chosen[str(held)] = t
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
    y = right.astype(float)
    slices = np.array([r.slice for r in rows])
    print(f"offers weighed {len(rows)}, first right {int(right.sum())}, slices {len(set(slices))}")
    p = out_of_fold(x, y, slices, args.l2)
    print("out of fold (leave one slice out), promoted when p >= t: right, wrong, score")
    for t in THRESHOLDS:
        rr, ww, ss = tally(p >= t, right)
        print(f"{t:>6.2f}{rr:>7}{ww:>7}{ss:>7.0f}")
    cards, chosen = nested(x, y, slices, args.l2)
    print("nested (threshold chosen inside each fold): slice, threshold, promoted right, wrong")
    for part in dict.fromkeys(slices):
        here = slices == part
        rr, ww, _ = tally(cards[here], right[here])
        print(f"  {part:<10}{chosen[str(part)]:>6.2f}{rr:>5}{ww:>4}")
    honest = tally(cards, right)
    print(f"  {'all':<16}{honest[0]:>5}{honest[1]:>4}  score {honest[2]:+.0f}")
    promote = best_threshold(p, right)
    mean, scale = standardised(x)
    weights = fit((x - mean) / scale, y, args.l2)
    print(f"shipped threshold {promote} (leave-one-slice-out over every slice)")
    print("standardised weights, largest first:")
    for feature, weight in sorted(
        zip(FEATURES, weights[:-1], strict=True), key=lambda i: -abs(i[1])
    ):
        print(f"  {feature:<22}{weight:>+8.3f}")
    made = {
        "how": f"python tools/fit_card_model.py --write {_shown(args.write)} --l2 {args.l2}",
        "main": _commit(),
        "slices": sorted(set(slices)),
        "rows": len(rows),
        "out_of_fold_nested": {"promoted_right": honest[0], "promoted_wrong": honest[1]},
        "promote": promote,
        "features": list(FEATURES),
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
