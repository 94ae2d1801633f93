"""Task speed54: any change to the encoder's arithmetic (speed54 tried tokens as columns and the
GELU by blocks; not shipped: bench/results/semantic.md "speed54") must leave its vectors within
rounding of the entry vectors shipped in the package, which a start uses in place of embedding."""

from __future__ import annotations

import numpy as np

from bot.glossary import load_glossary
from bot.search.semantic.encoder import shared_encoder
from bot.search.semantic.vectors import SEED_DIR, entry_texts, read_vectors, text_key

ROUNDING = 1e-6  # 1 - cosine: the products' summation order, nothing more


def test_the_shipped_entry_vectors_are_what_the_encoder_makes() -> None:
    """model/entry-vectors.npz (tools/seed_vectors.py) was made by the encoder of its day; a
    start uses it in place of embedding, so the encoder must still make those vectors: a sample
    of the bundled entries' texts, each within rounding of its shipped vector."""
    encoder = shared_encoder()
    shipped = read_vectors(SEED_DIR)
    every = [text for entry in load_glossary() for text in entry_texts(entry)]
    texts = [text for text in every if len(text) < 160][::250]  # short ones: a quick test
    keys = [text_key(encoder.fingerprint, text) for text in texts]
    assert all(key in shipped for key in keys), "run tools/seed_vectors.py"
    made = encoder.encode(texts).astype(np.float64)
    want = np.stack([shipped[key] for key in keys]).astype(np.float64)
    cosines = np.sum(made * want, axis=1) / np.linalg.norm(want, axis=1)
    assert float(np.max(1.0 - cosines)) < ROUNDING
