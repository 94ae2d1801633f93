"""Candidate names for a typo, found by shared character trigrams (numpy, no Python loops).

Scoring every name with rapidfuzz costs ~60 ms at 100k names; counting shared trigrams over an
inverted index and rescoring only the best couple of hundred costs ~1 ms. The index is built in
one vectorised pass over all keys joined into one array of code points.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

# Each code point is folded to 11 bits so a trigram fits 33 bits and (trigram, key) one int64.
# A fold collision only adds a candidate; the rescoring decides.
_FOLD = 2039
_CHUNK = 25_000


def _codes(keys: Sequence[str]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Trigram codes of every key padded with spaces (so starts and ends count), with the
    position of the key each came from."""
    joined = "\0".join(f" {k} " for k in keys)
    points = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32).astype(np.int64)
    owner = np.cumsum(points == 0)
    folded = points % _FOLD
    grams = (folded[:-2] << 22) | (folded[1:-1] << 11) | folded[2:]
    valid = (points[:-2] != 0) & (points[1:-1] != 0) & (points[2:] != 0)
    return grams[valid], owner[:-2][valid]


def _distinct(ordered: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Unique values of a sorted array (np.unique would sort it again)."""
    if len(ordered) == 0:
        return ordered
    keep = np.empty(len(ordered), dtype=bool)
    keep[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]


def _query_grams(key: str) -> set[int]:
    """`_codes` for one short string, in plain Python (faster than numpy at this size)."""
    points = [ord(c) % _FOLD for c in f" {key} "]
    return {
        (a << 22) | (b << 11) | c for a, b, c in zip(points, points[1:], points[2:], strict=False)
    }


class TrigramIndex:
    """Inverted index from trigram to the keys containing it."""

    def __init__(self, keys: Sequence[str]) -> None:
        self.size = len(keys)
        self._shift = max(1, self.size.bit_length())
        if not keys:
            self._grams = np.zeros(0, dtype=np.int64)
            self._starts = np.zeros(1, dtype=np.int64)
            self._postings = np.zeros(0, dtype=np.int32)
            self._gram_counts = np.zeros(0, dtype=np.int32)
            self._lengths = np.zeros(0, dtype=np.int32)
            self._slot: dict[int, int] = {}
            self._bounds: list[int] = [0]
            return
        chunks = []
        for start in range(0, len(keys), _CHUNK):  # in chunks: the code arrays are 8x the text
            grams, owner = _codes(keys[start : start + _CHUNK])
            chunks.append(_distinct(np.sort((grams << self._shift) | (owner + start))))
        pairs = np.sort(np.concatenate(chunks))  # by trigram, then key
        pair_grams = pairs >> self._shift
        self._postings = (pairs & ((1 << self._shift) - 1)).astype(np.int32)
        boundaries = np.flatnonzero(np.diff(pair_grams)) + 1
        self._grams = pair_grams[np.concatenate(([0], boundaries))]
        self._starts = np.concatenate(([0], boundaries, [len(pairs)])).astype(np.int64)
        self._gram_counts = np.bincount(self._postings, minlength=self.size).astype(np.int32)
        self._lengths = np.fromiter(map(len, keys), np.int32, len(keys))
        # A query has a dozen trigrams: dict lookups beat numpy calls at that size.
        self._slot = {gram: slot for slot, gram in enumerate(self._grams.tolist())}
        self._bounds = self._starts.tolist()

    def candidates(
        self, key: str, limit: int, min_share: float = 0.2, min_dice: float = 0.25
    ) -> list[int]:
        """Positions of up to `limit` keys sharing the most trigrams with `key` (Dice order):
        at least `min_share` of the query's trigrams, and a Dice coefficient of `min_dice`
        (a long description shares a trigram or two with half the names; none is a typo)."""
        if not key or self.size == 0:
            return []
        query_grams = _query_grams(key)
        slots = [s for s in map(self._slot.get, query_grams) if s is not None]
        if not slots:
            return []
        bounds = self._bounds
        postings = np.concatenate([self._postings[bounds[s] : bounds[s + 1]] for s in slots])
        wanted = max(1, int(np.ceil(min_share * len(query_grams))))
        # A name much shorter than the query is no typo of it (a name inside a query is found
        # as a mention, not here).
        shortest = int(len(key) * 0.6)
        if len(postings) * 8 < self.size:  # few postings: no full-size count array
            owners, shared = np.unique(postings, return_counts=True)
            dice = 2.0 * shared / (len(query_grams) + self._gram_counts[owners])
            close = (shared >= wanted) & (dice >= min_dice) & (self._lengths[owners] >= shortest)
            owners, dice = owners[close], dice[close]
        else:
            counts = np.bincount(postings, minlength=self.size)
            every = 2.0 * counts / (len(query_grams) + self._gram_counts)
            close = (counts >= wanted) & (every >= min_dice) & (self._lengths >= shortest)
            owners = np.flatnonzero(close)
            dice = every[owners]
        if len(owners) > limit:
            top = np.argpartition(-dice, limit - 1)[:limit]
            owners, dice = owners[top], dice[top]
        return [int(i) for i in owners[np.argsort(-dice, kind="stable")]]
