"""A calibrated P(the first choice is right) from `calib73_table`'s records, judged only by
cross-validation that leaves whole tuning slices out (rows of one slice share a writer), and the
two thresholds chosen on those out-of-fold predictions (task calib73, issue #12 part 2).

    OPENBLAS_NUM_THREADS=1 python bench/calib73_fit.py RECORDS [--whatif] [--numbers]

RECORDS: `calib73_table.py --all --dump FILE` (every slice: the what-if needs them), or
`bench/results/calib75_offers.jsonl.gz` (the tuning offers the shipped model was fitted on:
`--numbers` prints it as `bot/search/calibration.py` carries it).

Two models, the same signals: one over cards (P(card right): a card under the demotion threshold
becomes an offer, the same entry first), one over offers (P(first offer right): an offer over
the promotion threshold becomes its first choice's card). Each is an L2-regularised logistic
regression fitted by Newton's method in numpy (no new run-time dependency: the bot would carry
a mean, a scale and a weight per signal). Prints each model's out-of-fold AUC and the curve
(right kept vs wrong and off-topic removed, or right vs wrong and off-topic added, at each
threshold) and the thresholds the ship rule's ratios allow on it. `calib` and every held-out
slice are never fitted on nor read row by row: `--whatif` prints only their totals before ->
after with the thresholds fixed, the models refitted on every tuning slice.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import sys
import zlib
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.relevance_report import shown_row_by_row  # noqa: E402
from bot.search import calibration  # noqa: E402
from bot.search.calibration import NAMES  # noqa: E402

Record = dict[str, Any]
L2 = 1.0
# main's held-out wrong share when refitted (relevance-main74.txt, test..test36, for calib75;
# 0.0435 for calib74, 0.0436 for calib73)
SHARE = 0.0429
# The tuning slices' offers the shipped model was fitted on (calib75's refit: dev..dev28,
# everyday*, chat; calib not, dev29 not), written from `calib73_table.py --all --dump ALL` on
# main c7914483 (long74 and fix74 merged) with `--all --slices dev29,test37` appended after
# merging main 1c3e223e (blind75's pair; no search change), by
# `calib73_fit.py ALL --leave-out dev29 --write-offers bench/results/calib75_offers.jsonl.gz`
# (calib74's: dev..dev27 on d417d84e)
OFFERS = ROOT / "bench/results/calib75_offers.jsonl.gz"
# calib76's bagged threshold: resamples, and the seed every slice's Poisson count is drawn from
BAGS = 500
SEED = 76


def values(r: Record) -> list[float]:
    """A record's numbers, as the bot computes them for an offer."""
    return calibration.numbers(calibration.of(r))


KINDS = ("tool", "model", "method", "concept", None)


def extra_values(r: Record) -> list[float]:
    """calib74's signals for the demotion attempt (`calib73_table.extra`): the entry's kind, its
    names' nearest match in the text, a question asking for a fix, the meaning's margin over the
    card's own near neighbours (and how many of them, and of its related entries, are in the
    meaning's ten)."""
    margin = r.get("x_neigh_margin")
    return [
        *(float(r.get("x_kind") == k) for k in KINDS),
        r.get("x_name_fuzz", 0.0) / 100,
        float(r.get("x_fix", False)),
        0.0 if margin is None else margin,
        float(margin is None),
        r.get("x_neigh_in_ten", 0) / 5,
        r.get("x_related_in_ten", 0) / 10,
    ]


EXTRA_NAMES = (
    *(f"kind_{k}" for k in KINDS),
    "name_fuzz",
    "fix",
    "neigh_margin",
    "neigh_none",
    "neigh_in_ten",
    "related_in_ten",
)
EXTRA = False  # --extra: the cards model reads `extra_values` too


def features(r: Record) -> list[float]:
    """The numbers a model reads: the shipped signals, with calib74's for cards under --extra."""
    return values(r) + extra_values(r) if EXTRA and r["card"] else values(r)


def fit(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean, scale and weights (bias last) of an L2 logistic regression, by Newton's method."""
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    w = np.zeros(z.shape[1])
    penalty = np.full(z.shape[1], L2)
    penalty[-1] = 0.0
    for _ in range(50):
        p = 1 / (1 + np.exp(-z @ w))
        grad = z.T @ (p - y) + penalty * w
        hess = (z * (p * (1 - p))[:, None]).T @ z + np.diag(penalty) + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return mean, scale, w


def predict(model: tuple[np.ndarray, np.ndarray, np.ndarray], x: np.ndarray) -> np.ndarray:
    mean, scale, w = model
    z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    return 1 / (1 + np.exp(-z @ w))


def auc(p: np.ndarray, y: np.ndarray) -> float:
    order = np.argsort(p)
    ranks = np.empty(len(p))
    ranks[order] = np.arange(1, len(p) + 1)
    pos = y == 1
    n1, n0 = pos.sum(), (~pos).sum()
    return float((ranks[pos].sum() - n1 * (n1 + 1) / 2) / (n1 * n0)) if n1 and n0 else math.nan


def out_of_fold(records: list[Record]) -> np.ndarray:
    """Each record's P(right) from the model fitted on every other tuning slice."""
    x = np.array([features(r) for r in records])
    y = np.array([r["verdict"] == "right" for r in records], dtype=float)
    groups = np.array([r["slice"] for r in records])
    p = np.zeros(len(records))
    for g in sorted(set(groups)):
        held = groups == g
        p[held] = predict(fit(x[~held], y[~held]), x[held])
    return p


def curve(records: list[Record], p: np.ndarray, *, below: bool) -> list[tuple[float, Counter]]:
    """At each threshold, the records it would move: p < t (demote cards) or p >= t (card
    offers), counted by verdict."""
    out = []
    grid = sorted({round(float(v), 3) for v in np.quantile(p, np.linspace(0, 1, 201))})
    for t in grid:
        moved = [r for r, q in zip(records, p, strict=True) if (q < t if below else q >= t)]
        c = Counter(r["verdict"] for r in moved)
        key = "card3_as_offer" if below else "card3_as_card"
        c["card3_lost"] = sum(r["card3_as_card"] and not r[key] for r in moved) if below else 0
        c["card3_won"] = sum(r[key] and not r["card3_as_offer"] for r in moved) if not below else 0
        out.append((t, c))
    return out


def load(path: str | Path) -> list[Record]:
    """Records written by `calib73_table.py --dump` (or gzipped: `OFFERS`, the shipped fit's)."""
    path = Path(path)
    opened = gzip.open(path, "rt") if path.suffix == ".gz" else path.open()  # noqa: SIM115
    with opened as lines:
        return [json.loads(line) for line in lines]


def fitted_offers(offers: list[Record], share: float = SHARE) -> tuple[Any, float]:
    """The offers model fitted on every tuning slice's offers, and the threshold chosen on the
    out-of-fold curve: what `bot/search/calibration.py` carries."""
    x = np.array([values(r) for r in offers])
    y = np.array([r["verdict"] == "right" for r in offers], dtype=float)
    return fit(x, y), promote_threshold(offers, out_of_fold(offers), share)


def tuning(records: list[Record]) -> list[Record]:
    """The tuning slices' answered records: held-out slices and calib are never fitted on
    (calib73's fit held calib's 2 offers; calib74 keeps them out)."""
    return [r for r in records if shown_row_by_row(r["slice"]) and r["verdict"] != "nothing"]


def demote_threshold(cards: list[Record], p: np.ndarray, ratio: float) -> float:
    """The highest threshold whose out-of-fold demotions remove at least `ratio` wrong and
    off-topic cards per right card, and most of them: 0 (none) where no threshold does."""
    best, best_bad = 0.0, 0
    for t, c in curve(cards, p, below=True):
        bad = c["wrong"] + c["off"]
        if bad > best_bad and bad >= ratio * c["right"] and c["card3_lost"] == 0:
            best, best_bad = t, bad
    return best


def lowest_clean(p: np.ndarray, verdicts: np.ndarray, share: float) -> float:
    """`promote_threshold` on arrays (the same grid, the same answer; vectorised for the
    bootstrap): the lowest t whose records with p >= t are wrong at most `share` of the on-topic
    ones and never off-topic, 1.01 where none is."""
    grid = np.array(sorted({round(float(v), 3) for v in np.quantile(p, np.linspace(0, 1, 201))}))
    moved = p[None, :] >= grid[:, None]
    right = (moved & (verdicts == "right")).sum(axis=1)
    wrong = (moved & (verdicts == "wrong")).sum(axis=1)
    off = (moved & (verdicts == "off")).sum(axis=1)
    total = right + wrong
    ok = (total > 0) & (off == 0) & (wrong <= share * total)
    return float(grid[ok].min()) if ok.any() else 1.01


def resample_counts(slices: list[str], bag: int, seed: int = SEED) -> dict[str, int]:
    """Bootstrap resample `bag`'s count for each slice, Poisson(1) from a generator keyed by the
    bag and the slice's name alone: a fit with one slice more or less keeps every other slice's
    counts (calib76)."""
    return {
        s: int(np.random.default_rng([seed, bag, zlib.crc32(s.encode())]).poisson(1.0))
        for s in slices
    }


def bag_thresholds(
    offers: list[Record], share: float = SHARE, bags: int = BAGS, seed: int = SEED
) -> list[float]:
    """calib74's threshold (`promote_threshold`) on each of `bags` slice-level Poisson bootstrap
    resamples of `offers`: a slice drawn n times is copied n times, the out-of-fold predictions
    are by leave-one-slice-out over the resample (a slice's copies left out together)."""
    x = np.array([values(r) for r in offers])
    y = np.array([r["verdict"] == "right" for r in offers], dtype=float)
    verdicts = np.array([r["verdict"] for r in offers])
    groups = np.array([r["slice"] for r in offers])
    names = sorted(set(groups))
    out = []
    for bag in range(bags):
        counts = resample_counts(names, bag, seed)
        copies = np.array([counts[g] for g in groups])
        drawn = [s for s in names if counts[s]]
        xr, yr, gr = np.repeat(x, copies, axis=0), np.repeat(y, copies), np.repeat(groups, copies)
        p = np.zeros(len(offers))
        for g in drawn:
            p[groups == g] = predict(fit(xr[gr != g], yr[gr != g]), x[groups == g])
        out.append(lowest_clean(np.repeat(p, copies), np.repeat(verdicts, copies), share))
    return out


def bagged_threshold(offers: list[Record], share: float = SHARE, bags: int = BAGS) -> float:
    """calib76's threshold: the median of `bag_thresholds` (the rule chosen before any
    what-if: semantic.md "calib76")."""
    return float(np.median(bag_thresholds(offers, share, bags)))


def promote_threshold(offers: list[Record], p: np.ndarray, share: float) -> float:
    """The lowest threshold whose out-of-fold promotions card wrong at most `share` of the time
    and no off-topic row: 1.01 (none) where no threshold does."""
    best = 1.01
    for t, c in sorted(curve(offers, p, below=False), key=lambda i: -i[0]):
        total = c["right"] + c["wrong"]
        if total and c["off"] == 0 and c["wrong"] <= share * total:
            best = t
    return best


def print_curve(name: str, rows: list[tuple[float, Counter]], step: int) -> None:
    print(f"  {'t':>6}{'right':>7}{'wrong':>7}{'off':>5}{'card3':>7}  ({name})")
    last = None
    for t, c in rows[::step]:
        key = (c["right"], c["wrong"], c["off"])
        if key != last:
            card3 = c["card3_lost"] or c["card3_won"]
            print(f"  {t:>6.3f}{c['right']:>7}{c['wrong']:>7}{c['off']:>5}{card3:>7}")
            last = key


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("records")
    parser.add_argument("--ratio", type=float, default=4.0, help="bad removed per right lost")
    parser.add_argument("--share", type=float, default=SHARE, help="the wrong share to keep")
    parser.add_argument("--whatif", action="store_true")
    parser.add_argument(
        "--numbers", action="store_true", help="print the offers model as bot/search carries it"
    )
    parser.add_argument("--demote", type=float, help="fix the demotion threshold")
    parser.add_argument("--promote", type=float, help="fix the promotion threshold")
    parser.add_argument(
        "--extra", action="store_true", help="the cards model reads calib74's signals too"
    )
    parser.add_argument(
        "--leave-out", default="", help="tuning slices not fitted on (calib75: dev28 or not)"
    )
    parser.add_argument(
        "--write-offers", help="write the tuning offers fitted on here (gzipped JSON lines)"
    )
    parser.add_argument(
        "--save-model", help="write the offers model and threshold here (JSON: the what-if's)"
    )
    args = parser.parse_args()
    global EXTRA
    EXTRA = args.extra
    every = load(args.records)
    left_out = set(filter(None, args.leave_out.split(",")))
    rows = [r for r in tuning(every) if r["slice"] not in left_out]
    if args.write_offers:
        with gzip.open(args.write_offers, "wt") as out:
            out.writelines(json.dumps(r) + "\n" for r in rows if not r["card"])
    cards = [r for r in rows if r["card"]]
    offers = [r for r in rows if not r["card"]]
    print(f"tuning slices {len({r['slice'] for r in rows})}: {len(rows)} rows answered")
    # an offers-only file (calib75_offers.jsonl.gz) has no cards: that model is left out
    groups = {name: group for name, group in (("cards", cards), ("offers", offers)) if group}
    if args.whatif and len(groups) < 2:
        print("--whatif needs cards and offers: `calib73_table.py --all --dump FILE`'s records")
        return 2
    for name in {"cards", "offers"} - groups.keys():
        print(f"== {name}: none in {args.records}, no model")
    thresholds = {}
    for name, group in groups.items():
        below = name == "cards"
        c = Counter(r["verdict"] for r in group)
        p = out_of_fold(group)
        y = np.array([r["verdict"] == "right" for r in group], dtype=float)
        print(f"== {name}: right {c['right']} wrong {c['wrong']} off {c['off']}")
        print(f"  out-of-fold AUC (leave one slice out): {auc(p, y):.3f}")
        rows_curve = curve(group, p, below=below)
        print_curve(
            "demoted where P < t" if below else "carded where P >= t",
            rows_curve if below else rows_curve[::-1],
            1,
        )
        t = (
            demote_threshold(group, p, args.ratio)
            if below
            else promote_threshold(group, p, args.share)
        )
        thresholds[name] = t
        print(f"  threshold from the out-of-fold curve: {t}")
    if args.demote is not None:
        thresholds["cards"] = args.demote
    if args.promote is not None:
        thresholds["offers"] = args.promote
    models = {}
    for name, group in groups.items():
        x = np.array([features(r) for r in group])
        y = np.array([r["verdict"] == "right" for r in group], dtype=float)
        models[name] = fit(x, y)
        w = models[name][2]
        names = [*NAMES, *EXTRA_NAMES] if EXTRA and name == "cards" else NAMES
        top = sorted(zip(names, w[:-1], strict=True), key=lambda i: -abs(i[1]))[:10]
        print(
            f"  {name} weights (standardised), largest: "
            + ", ".join(f"{n} {v:+.2f}" for n, v in top)
        )
    if args.numbers and "offers" in models:
        print(numbers(models["offers"]))
    if args.save_model and "offers" in models:
        mean, scale, w = models["offers"]
        model = {
            "MEAN": mean.tolist(),
            "SCALE": scale.tolist(),
            "WEIGHTS": w[:-1].tolist(),
            "BIAS": float(w[-1]),
            "OFFER_CARDED": thresholds["offers"],
        }
        Path(args.save_model).write_text(json.dumps(model))
    if args.whatif:
        whatif(every, models, thresholds)
    return 0


def numbers(model: tuple[np.ndarray, np.ndarray, np.ndarray]) -> str:
    """The model as `bot/search/calibration.py` carries it (12 digits)."""
    mean, scale, w = model

    def row(name: str, values: Any) -> str:
        return f"{name}: tuple[float, ...] = (" + ", ".join(f"{v:.12g}" for v in values) + ",)"

    return "\n".join(
        [row("MEAN", mean), row("SCALE", scale), row("WEIGHTS", w[:-1]), f"BIAS = {w[-1]:.12g}"]
    )


def whatif(every: list[Record], models: dict[str, Any], thresholds: dict[str, float]) -> None:
    """Per slice (held out as totals only): right, wrong, off-topic cards and card/3 before ->
    after, the thresholds fixed, the models fitted on every tuning slice. The records were
    searched without the step: before is the step as shipped (`calibration`'s numbers), after
    the models given."""
    before: dict[str, Counter] = {}
    after: dict[str, Counter] = {}
    for r in every:
        name = r["slice"]
        b = before.setdefault(name, Counter())
        a = after.setdefault(name, Counter())
        if r["verdict"] == "nothing":
            continue
        shipped = calibration.p_right(values(r)) >= calibration.OFFER_CARDED
        tally(b, r, r["card"] or shipped)
        q = float(predict(models["cards" if r["card"] else "offers"], np.array([features(r)]))[0])
        carded = q >= thresholds["offers"] if not r["card"] else q >= thresholds["cards"]
        tally(a, r, carded)
    groups = {
        "tuning": [s for s in before if shown_row_by_row(s)],
        "held out test*": [s for s in before if s.startswith("test")],
        "calib": ["calib"],
        "checks": [s for s in before if s.endswith("-check")],
    }
    print("== what-if: before -> after (right / wrong / off cards, card/3)")
    for label, names in [*groups.items(), *((s, [s]) for s in sorted(before))]:
        b = sum((before[s] for s in names if s in before), Counter())
        a = sum((after[s] for s in names if s in after), Counter())
        if b == a and label not in groups:
            continue
        print(
            f"  {label:<18} right {b['right']}->{a['right']} wrong {b['wrong']}->{a['wrong']} "
            f"off {b['off']}->{a['off']} card3 {b['card3']}->{a['card3']}"
        )


def tally(c: Counter, r: Record, carded: bool) -> None:
    """Count a record as a card (its first choice carded), the card fix74's remedy rule makes of
    an offer the step leaves (recorded since calib75), or an offer (the same entry first)."""
    if carded:
        c[r["verdict"]] += 1
        c["card3"] += bool(r["card3_as_card"])
    elif r.get("remedy"):
        c[r["remedy"]] += 1
        c["card3"] += bool(r["remedy_card3"])
    else:
        c["card3"] += bool(r["card3_as_offer"])


if __name__ == "__main__":
    raise SystemExit(main())
