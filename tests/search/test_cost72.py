"""Task cost72: a long message's pass made cheaper with the same vectors. A text repeated in a
pass (a clause that is also the asking clause) is run once, which is exact because a text's
vector does not depend on the other texts in its pass; GELU worked a block of rows at a time
gives the same bits; an entry's best row found by runs gives the same cosines as a row at a time.
"""

from __future__ import annotations

import numpy as np
import pytest

from bot.search.semantic import SemanticIndex
from bot.search.semantic.encoder import (
    GELU_ROWS,
    QUERY_TOKENS,
    Encoder,
    _gelu_,
    _gelu_block_,
    shared_encoder,
)

MESSAGE = (
    "so my team lead keeps saying we should shrink the model before it ships to phones, "
    "something about storing the weights as smaller numbers, is that the same as making it "
    "dumber, anyone know?"
)
CLAUSES = [
    "so my team lead keeps saying we should shrink the model before it ships to phones",
    "something about storing the weights as smaller numbers",
    "is that the same as making it dumber",
    "anyone know",
]


def test_a_texts_vector_does_not_depend_on_its_pass(
    ragged_passes: tuple[Encoder, list[list[int]]],
) -> None:
    encoder, _ = ragged_passes
    together = encoder.encode_queries([MESSAGE], fit=True, uncut=CLAUSES)
    for row, text in zip(together, [MESSAGE, *CLAUSES], strict=True):
        assert np.array_equal(row, encoder.encode_queries([text])[0])
    backwards = encoder.encode_queries(CLAUSES[::-1])[::-1]
    assert np.array_equal(backwards, together[1:])


def test_a_clause_repeating_a_rider_is_run_once(
    ragged_passes: tuple[Encoder, list[list[int]]],
) -> None:
    encoder, made = ragged_passes
    asked = CLAUSES[2]
    vectors = encoder.encode_queries([MESSAGE, asked], fit=True, uncut=CLAUSES)
    once = [MESSAGE, asked, CLAUSES[0], CLAUSES[1], CLAUSES[3]]
    rows = [len(encoder.tokenizer.encode(t, QUERY_TOKENS)) for t in once]
    assert sum(rows[:2]) <= QUERY_TOKENS  # the rider is not cut: the clause's own tokens
    assert made == [rows]  # the asking clause's rows once, not twice
    assert len(vectors) == 2 + len(CLAUSES)
    assert np.array_equal(vectors[1], vectors[2 + 2])
    assert np.array_equal(vectors[1], encoder.encode_queries([asked])[0])


def test_gelu_by_blocks_gives_the_whole_arrays_bits() -> None:
    rows = 3 * GELU_ROWS + 5
    x = np.random.default_rng(72).normal(0.0, 3.0, (rows, 1536)).astype(np.float32)
    whole = x.copy()
    _gelu_block_(whole)
    assert np.array_equal(_gelu_(x.copy()), whole)


@pytest.mark.parametrize("order", ["runs", "scattered"])
def test_entry_cosines_are_each_entrys_best_row(order: str) -> None:
    rng = np.random.default_rng(7)
    vectors = rng.normal(size=(40, 384)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    owners = np.sort(rng.integers(0, 12, 40)).astype(np.int32)
    owners = owners[owners != 5]  # a position with no rows reads -1
    vectors = vectors[: len(owners)]
    if order == "scattered":  # rows of one entry apart: read a row at a time
        owners = rng.permutation(owners)
    index = SemanticIndex(vectors, owners, shared_encoder(), 0)
    assert (index._runs is None) == (order == "scattered")
    queries = rng.normal(size=(3, 384)).astype(np.float32)
    cosines = index._entry_cosines(queries)
    every = vectors @ queries.T
    for position in range(int(owners.max()) + 1):
        mine = every[owners == position]
        best = mine.max(axis=0) if len(mine) else np.full(3, -1.0, np.float32)
        assert np.array_equal(cosines[:, position], np.maximum(best, np.float32(-1.0)))
