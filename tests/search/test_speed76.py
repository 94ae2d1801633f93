"""Task speed76, built for the benches only (`index.WHOLE_FROM_CLAUSES`, off in the bot): a long
message read by its clauses (long71) that writes no name runs ONE pass over its clauses alone;
its own vector is their mean, each clause weighed by its word pieces (`Encoder.encode_claused`),
not a pass of the message's first 64 rows beside them: about half a long pass's rows. It lost 8
long probes' cards (bench/results/semantic.md "speed76"), so the bot keeps the message's pass
(tests/search/test_speed74.py)."""

from __future__ import annotations

import numpy as np
import pytest

import bot.search.index as index_module
from bot.search import SearchIndex
from bot.search.index import MAX_QUERY
from bot.search.query import clauses_of
from bot.search.semantic.encoder import QUERY_TOKENS, Encoder
from tests.search.test_cost72 import CLAUSES
from tests.search.test_speed74 import FRAMED


def test_the_switch_reads_a_long_message_in_one_pass_of_its_clauses(
    bundled_index: SearchIndex,
    ragged_passes: tuple[Encoder, list[list[int]]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert not index_module.WHOLE_FROM_CLAUSES  # the bot's one way: the message's pass
    monkeypatch.setattr(index_module, "WHOLE_FROM_CLAUSES", True)
    assert bundled_index.semantic is not None
    encoder, made = ragged_passes
    assert bundled_index.semantic.encoder is encoder
    bundled_index.search(FRAMED)
    clauses = clauses_of(FRAMED[:MAX_QUERY])
    assert len(clauses) > 1
    assert made == [[len(encoder.tokenizer.encode(c, QUERY_TOKENS)) for c in clauses]]


def test_the_whole_vector_is_the_clauses_mean_by_word_pieces(
    ragged_passes: tuple[Encoder, list[list[int]]],
) -> None:
    encoder, made = ragged_passes
    rows = encoder.encode_claused(CLAUSES)
    assert len(made) == 1
    assert len(rows) == 1 + len(CLAUSES)
    alone = encoder.encode_queries(CLAUSES)
    assert np.array_equal(rows[1:], alone)  # each clause's own vector, to the bit
    pieces = np.array([len(encoder.tokenizer.encode(c, QUERY_TOKENS)) - 2 for c in CLAUSES])
    assert len(set(pieces.tolist())) > 1  # the weights matter
    mean = (pieces.astype(np.float32) @ alone).astype(np.float64)
    assert np.allclose(rows[0], mean / np.linalg.norm(mean), atol=1e-6)
    assert abs(float(np.linalg.norm(rows[0])) - 1.0) < 1e-6


def test_a_clause_repeated_is_run_once_and_weighed_twice(
    ragged_passes: tuple[Encoder, list[list[int]]],
) -> None:
    encoder, made = ragged_passes
    twice = [CLAUSES[0], CLAUSES[1], CLAUSES[0]]
    rows = encoder.encode_claused(twice)
    assert made == [[len(encoder.tokenizer.encode(c, QUERY_TOKENS)) for c in CLAUSES[:2]]]
    assert np.array_equal(rows[1], rows[3])
    pieces = np.array(
        [len(encoder.tokenizer.encode(c, QUERY_TOKENS)) - 2 for c in twice], np.float32
    )
    mean = pieces @ rows[1:]
    assert np.allclose(rows[0], mean / np.linalg.norm(mean), atol=1e-6)
