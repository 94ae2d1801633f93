"""Carry the cosine thresholds in bot/search over to another encoder, on the calibration slice.

    python bench/cosine_map.py --old DIR [--new DIR]   # DIRs: model folders (MODEL.json, npz)

A new encoder spreads its cosines differently, so a threshold set for the old one means
something else. For the calibration slice's queries (every kind, off-topic too) this takes the
cosines of each query's ten nearest entries under both models and maps each threshold to the new
model's cosine at the same quantile (leads and slopes through the map's local stretch). One
table, set on calib only; dev slices check it. Last line JSON: constant -> (old, new).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.glossary import load_glossary  # noqa: E402
from bot.search import fusion, questions  # noqa: E402
from bot.search.relevance import load_cases  # noqa: E402
from bot.search.semantic import SemanticIndex  # noqa: E402
from bot.search.semantic.encoder import MODEL_DIR, Encoder  # noqa: E402

CALIBRATION = ("relevance_blind.tsv", "calib")
THRESHOLDS = {
    "fusion.CARD_COSINE": fusion.CARD_COSINE,
    "fusion.LEAD_COSINE": fusion.LEAD_COSINE,
    "fusion.OFF_DOMAIN_COSINE": fusion.OFF_DOMAIN_COSINE,
    "fusion.PIVOT_COSINE": fusion.PIVOT_COSINE,
    "fusion.AGREEMENT_COSINE": fusion.AGREEMENT_COSINE,
    "fusion.NAMED_COSINE": fusion.NAMED_COSINE,
    "questions.LEADING_COSINE": questions.LEADING_COSINE,
}
# (constant, value, the cosine it is a step above)
STEPS = {
    "fusion.CARD_LEAD": (fusion.CARD_LEAD, fusion.LEAD_COSINE),
    "questions.LEADING_GAP": (questions.LEADING_GAP, questions.LEADING_COSINE),
}


def cosines(model_dir: Path, queries: list[str]) -> np.ndarray:
    """The ten best entry cosines of every query, pooled and sorted."""
    with tempfile.TemporaryDirectory() as cache:
        semantic = SemanticIndex.build(
            list(load_glossary()), Encoder(model_dir), cache_dir=Path(cache)
        )
        found = [c for q in queries for _, c in semantic.similar(q, fusion.SEMANTIC_CANDIDATES)]
    return np.sort(np.asarray(found))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", type=Path, required=True)
    parser.add_argument("--new", type=Path, default=MODEL_DIR)
    args = parser.parse_args()
    name, part = CALIBRATION
    queries = [c.query for c in load_cases(ROOT / "tests/search" / name) if c.slice == part]
    old, new = cosines(args.old, queries), cosines(args.new, queries)

    def carried(value: float) -> float:
        return float(np.quantile(new, np.searchsorted(old, value) / len(old)))

    table: dict[str, tuple[float, float]] = {
        k: (v, round(carried(v), 3)) for k, v in THRESHOLDS.items()
    }
    for k, (step, base) in STEPS.items():
        table[k] = (step, round(carried(base + step) - carried(base), 3))
    pivot = fusion.PIVOT_COSINE
    stretch = (carried(pivot + 0.1) - carried(pivot - 0.1)) / 0.2
    table["fusion.SLOPE"] = (fusion.SLOPE, round(fusion.SLOPE / stretch, 1))
    print(f"{len(queries)} calibration queries, {len(old)} cosines each model")
    for k, (before, after) in table.items():
        print(f"{k:28} {before:>7} -> {after}")
    print(json.dumps(table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
