"""Splitting a large ASCII text into words without a Python object per word.

Indexing 100k definitions means ~1.5M word tokens; turning each into a `str` and looking it up
in a dict costs most of a second. Here the text is a numpy byte array: words are runs of
non-blank bytes, each gets a 64-bit hash built one character position at a time across all
words at once, and only the distinct words (tens of thousands) ever become strings.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

_BASE = np.uint64(0x100000001B3)  # the FNV prime
_HASHED_CHARS = 24  # longer words are told apart by these, their length and their last byte
_BLANK = 32

Words = tuple[
    npt.NDArray[np.uint64], npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]
]


def hashed_words(data: bytes, separator: int) -> Words:
    """For `data` of words separated by blanks and documents by the `separator` byte: each
    word's hash, its start and end offsets, and the number of its document."""
    chars = np.frombuffer(data, dtype=np.uint8)
    in_word = (chars != _BLANK) & (chars != separator)
    edges = np.diff(np.concatenate(([0], in_word.view(np.int8), [0])))
    starts = np.flatnonzero(edges == 1)
    ends = np.flatnonzero(edges == -1)
    lengths = ends - starts
    hashes = lengths.astype(np.uint64)
    with np.errstate(over="ignore"):  # the arithmetic is modulo 2**64 on purpose
        for offset in range(min(_HASHED_CHARS, int(lengths.max(initial=0)))):
            longer = np.flatnonzero(lengths > offset)
            hashes[longer] = hashes[longer] * _BASE + chars[starts[longer] + offset]
        hashes = hashes * _BASE + chars[np.maximum(ends - 1, 0)] if len(starts) else hashes
    boundaries = np.flatnonzero(chars == separator)
    documents = np.searchsorted(boundaries, starts).astype(np.int64)
    return hashes, starts, ends, documents
