"""The query vectors one search has already made, so a later encoder pass of the same search
runs only the texts it has not (task speed77). A text's vector does not depend on the other
texts in its pass, to the bit (`Encoder.encode_queries`, tests/search/test_cost72.py), so a
vector remembered by its token ids is the one a fresh pass would make. Kept for one search
alone (`one_search`), in a context variable: each thread's or task's search its own, nothing
kept between searches (a bench replaying a query times the encoder, not this), and no numpy
here: a search that never reaches the meaning stage loads nothing for it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

# token ids -> the unit vector (a numpy row) they made, while a search runs; None outside one
_KNOWN: ContextVar[dict[tuple[int, ...], Any] | None] = ContextVar("known_vectors", default=None)


@contextmanager
def one_search() -> Iterator[None]:
    """Remember the query vectors made inside this block; a block inside another (a search
    searching a part of its text) shares the outer one's."""
    if _KNOWN.get() is not None:
        yield
        return
    token = _KNOWN.set({})
    try:
        yield
    finally:
        _KNOWN.reset(token)


def known_vectors() -> dict[tuple[int, ...], Any] | None:
    """The vectors this search has made by their token ids, or None outside a search."""
    return _KNOWN.get()
