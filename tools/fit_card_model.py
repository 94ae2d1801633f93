"""Fit a learned card decision (card for the first choice, or an offer) and weigh it out of fold
(issue #12, task "rerank21").

    python tools/fit_card_model.py [--table table.tsv] [--promote 0.85 --demote 0.8] [--write w.json]

The rows are `bench/card_table.py`'s (tuning slices only: dev, calib, dev2..dev9, everyday,
chat; held-out slices are refused there), read from `--table` or made afresh. The model is two
logistic regressions in numpy (standardised features, L2) of "the first choice is right", one
over the rules' cards and one over their offers: an offer becomes a card from `--promote`, a
card an offer under `--demote`. Scored as right cards minus 3 x
wrong cards (an off-topic card is wrong), leave-one-slice-out, against the rules' own cards on
the same rows; it prints the curves over the thresholds. `--write` fits on every tuning row and
writes the weights with how they were made (no step ships them: bench/results/semantic.md
"rerank21" measured one, in branch rerank21's commit cd753a6, and why it was reverted).
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

WRONG_COST = 3.0
L2 = 1.0
THRESHOLDS = (0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95)
DEMOTE = (0.0, 0.3, 0.5, 0.6, 0.7, 0.8)


def decided(p: np.ndarray, cards: np.ndarray, promote: float, demote: float) -> np.ndarray:
    """Cards after the model: an offer promoted at `promote`, a card demoted under `demote`."""
    return np.where(cards, p >= demote, p >= promote)


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


def out_of_fold(rows: list[Row], l2: float) -> np.ndarray:
    """Each slice's probabilities from models fitted on the other slices (one for the rules'
    cards, one for their offers)."""
    x = np.array([r.features for r in rows])
    y = np.array([r.right for r in rows], dtype=float)
    slices = np.array([r.slice for r in rows])
    groups = np.array([r.main_card for r in rows])
    p = np.zeros(len(rows))
    for held in dict.fromkeys(slices):
        for group in (False, True):
            train = (slices != held) & (groups == group)
            test = (slices == held) & (groups == group)
            if not test.any():
                continue
            mean, scale = standardised(x[train])
            w = fit((x[train] - mean) / scale, y[train], l2)
            p[test] = probabilities(x[test], mean, scale, w)
    return p


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--table", type=Path, default=None, help="a table card_table.py wrote")
    parser.add_argument("--write", type=Path, default=None, help="write the fitted weights here")
    parser.add_argument("--promote", type=float, default=0.85)
    parser.add_argument("--demote", type=float, default=0.7)
    parser.add_argument("--l2", type=float, default=L2)
    args = parser.parse_args()
    rows = [r for r in _rows(args.table) if r.in_scope]
    right = np.array([r.right for r in rows])
    main_cards = np.array([r.main_card for r in rows])
    slices = np.array([r.slice for r in rows])
    p = out_of_fold(rows, args.l2)
    print(f"rows in scope {len(rows)}, first right {int(right.sum())}, slices {len(set(slices))}")
    r, w, s = tally(main_cards, right)
    print(f"main's cards: right {r}, wrong {w}, score {s:.0f}")
    print("out of fold (leave one slice out), card when p >= t:")
    print(
        f"{'t':>6}{'right':>7}{'wrong':>7}{'score':>7}{'vs main':>9}{'promoted':>10}{'demoted':>9}"
    )
    for t in THRESHOLDS:
        cards = p >= t
        rr, ww, ss = tally(cards, right)
        promoted = int((cards & ~main_cards).sum())
        demoted = int((~cards & main_cards).sum())
        print(f"{t:>6.2f}{rr:>7}{ww:>7}{ss:>7.0f}{ss - s:>+9.0f}{promoted:>10}{demoted:>9}")
    for mode in ("demote only", "promote only"):
        print(f"{mode}:")
        for t in THRESHOLDS:
            cards = (main_cards & (p >= t)) if mode == "demote only" else (main_cards | (p >= t))
            rr, ww, ss = tally(cards, right)
            print(f"{t:>6.2f}{rr:>7}{ww:>7}{ss:>7.0f}{ss - s:>+9.0f}")
    print("promote an offer at p >= row, demote a card at p < column: right, wrong (vs main)")
    print("      " + "".join(f"{t:>16.2f}" for t in DEMOTE))
    for promote in THRESHOLDS:
        cells = []
        for demote in DEMOTE:
            rr, ww, _ = tally(decided(p, main_cards, promote, demote), right)
            cells.append(f"{rr - r:>+8}/{ww - w:<+4}    ")
        print(f"{promote:>6.2f}" + "".join(cells))
    chosen = decided(p, main_cards, args.promote, args.demote)
    print(
        f"by slice, promote >= {args.promote}, demote < {args.demote} (main -> model: right, wrong):"
    )
    for part in dict.fromkeys(slices):
        here = slices == part
        mr, mw, _ = tally(main_cards[here], right[here])
        lr, lw, _ = tally(chosen[here], right[here])
        print(f"  {part:<10}{mr:>5} {mw:>3}  ->{lr:>5} {lw:>3}")
    rr, ww, ss = tally(chosen, right)
    print(f"  {'all':<10}{r:>5} {w:>3}  ->{rr:>5} {ww:>3}  score {s:.0f} -> {ss:.0f}")
    if args.write:
        made: dict[str, object] = {
            "how": f"python tools/fit_card_model.py --write {args.write} "
            f"--l2 {args.l2} --promote {args.promote} --demote {args.demote}",
            "main": _commit(),
            "slices": sorted(set(slices)),
            "rows": len(rows),
            "out_of_fold": {"main": [r, w], "model": list(tally(chosen, right)[:2])},
            "promote": args.promote,
            "demote": args.demote,
            "features": list(FEATURES),
        }
        x = np.array([row.features for row in rows])
        for group, name in ((True, "cards"), (False, "offers")):
            mine = main_cards == group
            mean, scale = standardised(x[mine])
            weights = fit((x[mine] - mean) / scale, right[mine].astype(float), args.l2)
            made[name] = {
                "rows": int(mine.sum()),
                "mean": [round(float(v), 6) for v in mean],
                "scale": [round(float(v), 6) for v in scale],
                "weights": [round(float(v), 6) for v in weights[:-1]],
                "bias": round(float(weights[-1]), 6),
            }
            print(f"{name} (standardised weights, largest first):")
            for feature, weight in sorted(
                zip(FEATURES, weights[:-1], strict=True), key=lambda i: -abs(i[1])
            ):
                print(f"  {feature:<22}{weight:>+8.3f}")
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


def _commit() -> str:
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return done.stdout.strip()


if __name__ == "__main__":
    raise SystemExit(main())
