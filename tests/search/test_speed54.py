"""Task speed54: the encoder runs tokens as columns (each weight product is weights (out, in) @
tokens, the order OpenBLAS runs fastest at a long message's 64 tokens) and the GELU on L2-sized
blocks of rows. Same arithmetic but for the products' summation order: vectors agree with the
shipped ones to rounding."""

from __future__ import annotations

import numpy as np
import pytest

from bot.glossary import load_glossary
from bot.search.semantic import encoder as encoder_module
from bot.search.semantic.encoder import _gelu_, _gelu_by_chunks_, shared_encoder
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


@pytest.mark.parametrize("columns", [1, 3, 16, 64, 72, 700])
def test_the_gelu_by_blocks_is_the_gelu_bit_for_bit(columns: int) -> None:
    hidden = (np.random.default_rng(columns).standard_normal((1536, columns)) * 3).astype(
        np.float32
    )
    whole = _gelu_(hidden.copy())
    assert np.array_equal(_gelu_by_chunks_(hidden.copy()), whole)


def test_blocks_smaller_than_a_row_still_cover_every_row(monkeypatch: pytest.MonkeyPatch) -> None:
    hidden = np.random.default_rng(5).standard_normal((7, 50)).astype(np.float32)
    monkeypatch.setattr(encoder_module, "GELU_CHUNK", 10)  # under a row: a row at a time
    assert np.array_equal(_gelu_by_chunks_(hidden.copy()), _gelu_(hidden.copy()))
