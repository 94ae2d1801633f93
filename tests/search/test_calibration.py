"""The calibrated confidence (task calib73): the numbers `bot/search/calibration.py` carries are
what `bench/calib73_fit.py` fits on the recorded tuning offers, and an offer the model is sure of
is its first choice's card."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bot.search import SearchIndex, calibration

from .server_term_calib import Server

ROOT = Path(__file__).resolve().parents[2]


def _fit_script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("calib73_fit", ROOT / "bench/calib73_fit.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_shipped_numbers_are_the_scripts_fit() -> None:
    script = _fit_script()
    offers = [r for r in script.tuning(script.load(script.OFFERS)) if not r["card"]]
    assert len(offers) == 1646
    (mean, scale, weights), threshold = script.fitted_offers(offers)
    assert np.allclose(calibration.MEAN, mean, rtol=1e-9, atol=1e-12)
    assert np.allclose(calibration.SCALE, scale, rtol=1e-9, atol=1e-12)
    assert np.allclose(calibration.WEIGHTS, weights[:-1], rtol=1e-9, atol=1e-12)
    assert pytest.approx(weights[-1], rel=1e-9) == calibration.BIAS
    assert threshold == calibration.OFFER_CARDED


def test_the_script_prints_the_shipped_model_from_the_offers_file() -> None:
    """`calib73_fit.py bench/results/calib75_offers.jsonl.gz --numbers`, as its docstring says.
    Failed before (mend73): IndexError in np.quantile, the file holds no cards to fit."""
    ran = subprocess.run(
        [sys.executable, "bench/calib73_fit.py", str(_fit_script().OFFERS), "--numbers"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "OPENBLAS_NUM_THREADS": "1"},
    )
    assert ran.returncode == 0, ran.stderr
    assert "== cards: none in " in ran.stdout, ran.stdout
    said = dict(line.split(" = ", 1) for line in ran.stdout.splitlines() if " = " in line)
    shipped = {
        "MEAN: tuple[float, ...]": calibration.MEAN,
        "SCALE: tuple[float, ...]": calibration.SCALE,
        "WEIGHTS: tuple[float, ...]": calibration.WEIGHTS,
    }
    for name, values in shipped.items():
        printed = [float(v) for v in said[name].strip("(,)").split(",")]
        assert np.allclose(values, printed, rtol=1e-9, atol=1e-12), name
    assert pytest.approx(calibration.BIAS, rel=1e-9) == float(said["BIAS"])


# Tuning rows (dev..dev24) that were offers with the right entry first and are now its card:
# each failed before the step (an offer, no card).
CARDED = [
    (
        "what's the point of running several attention heads in parallel instead of one",
        "multi-head-attention",
    ),
    (
        "umbrella term for greedy, beam and sampling, i.e. the policy for choosing each next token?",
        "decoding-strategy",
    ),
    (
        "how do inference servers keep the gpu busy when requests finish at different times? "
        "no waiting for the whole group",
        "continuous-batching",
    ),
    ("why do some tokenizers start from the 256 possible byte values", "byte-level"),
    # carded since calib74's refit (offers under calib73's numbers: failed before it)
    ("how does the model not peek at future words during training?", "causal-mask"),
    ("how do i restrict the model so it can only output yes or no", "constrained-decoding"),
    # carded since calib75's refit on dev..dev28 (offers under calib74's numbers, the right
    # entry first: failed before it); it cards teacher-forcing (dev22) and adam (dev25) again
    ("how surprised the model is by text", "perplexity"),
    (
        "mobile dev: why does the attention matrix in my toy gpt have its upper triangle set to "
        "minus infinity before softmax?",
        "causal-mask",
    ),
]


@pytest.mark.parametrize(("text", "entry"), CARDED)
def test_a_sure_offer_is_its_card(bundled_index: SearchIndex, text: str, entry: str) -> None:
    result = bundled_index.search(text)
    assert result.entry is not None
    assert result.entry.id == entry
    assert all(s.id != entry for s in result.suggestions)


def test_a_server_terms_offer_is_never_carded_by_the_bundled_model(
    server_indexes: list[tuple[Server, SearchIndex]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The model was fitted on bundled entries only (calib74): with its threshold at 0, where
    it cards every offer it weighs, an offer a server term leads stays an offer, and one a
    bundled entry leads in the same server is its card. Failed before (the term carded)."""
    step = SearchIndex._offer_carded
    monkeypatch.setattr(SearchIndex, "_offer_carded", lambda self, result, query: result)
    monkeypatch.setattr(calibration, "OFFER_CARDED", 0.0)
    led_by_term, led_by_bundled = [], []
    for server, index in server_indexes:
        terms = {term.id for term in server.terms}
        for text in (*(text for text, _ in server.described), *server.off_topic):
            offered = index.search(text)
            if offered.entry is not None or not offered.suggestions:
                continue
            weighed = step(index, offered, text)
            term = offered.suggestions[0].id in terms
            (led_by_term if term else led_by_bundled).append(weighed.entry)
    assert led_by_term, "no offer led by a server term"
    assert all(entry is None for entry in led_by_term)
    assert led_by_bundled, "no offer led by a bundled entry"
    assert all(entry is not None for entry in led_by_bundled)


def test_the_bagged_thresholds_pieces() -> None:
    """calib76's bagged threshold (bench only, not shipped): its vectorised line is calib74's on
    the shipped fit's out-of-fold curve, and a slice's bootstrap count depends on the resample
    and the slice's own name only, so a refit with a slice more or less keeps the others' draws."""
    script = _fit_script()
    offers = [r for r in script.tuning(script.load(script.OFFERS)) if not r["card"]]
    p = script.out_of_fold(offers)
    verdicts = np.array([r["verdict"] for r in offers])
    for share in (script.SHARE, 0.01, 0.10):
        assert script.lowest_clean(p, verdicts, share) == script.promote_threshold(offers, p, share)
    slices = sorted({r["slice"] for r in offers})
    for bag in range(20):
        every = script.resample_counts(slices, bag)
        fewer = script.resample_counts(slices[1:], bag)
        assert fewer == {s: every[s] for s in slices[1:]}
    counts = [script.resample_counts(slices, bag) for bag in range(50)]
    assert 0.7 < np.mean([c for bag in counts for c in bag.values()]) < 1.3  # Poisson(1)
