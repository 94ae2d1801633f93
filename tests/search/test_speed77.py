"""Task speed77: a text one search has already embedded is not run through the encoder again by
a later pass of the same search (`bot.search.remembered.one_search`), and every vector and
answer stays as it was, to the bit. Before the change, these searches ran the same text in two
passes (the text and its rest without the name, read again by the other-sense check; a
comparison's sides searched again)."""

from __future__ import annotations

import numpy as np
import pytest

from bot.search import SearchIndex
from bot.search.remembered import known_vectors, one_search
from bot.search.semantic.encoder import Encoder

# tuning rows (dev slices) whose search asked for a text an earlier pass had run
REPEATING = [
    "python asyncio.gather vs TaskGroup, when do i use which?",
    "alguém pode explicar o que é quantização? quero rodar um modelo no meu notebook",
    "game saved at the last checkpoint but i lost all my loot, is that normal?",
]


def _watched(
    monkeypatch: pytest.MonkeyPatch, encoder: Encoder
) -> tuple[list[list[tuple[int, ...]]], list[np.ndarray]]:
    """Each pass's texts as the encoder runs them (token ids), and each pass's vectors as the
    search is given them."""
    ran: list[list[tuple[int, ...]]] = []
    vectors: list[np.ndarray] = []
    queries, ragged = encoder.encode_queries, encoder._forward_ragged

    def asking(texts: list[str], *args: object, **kwargs: object) -> np.ndarray:
        made = queries(texts, *args, **kwargs)
        vectors.append(made.copy())
        return made

    def running(batch: list[list[int]]) -> np.ndarray:
        ran.append([tuple(ids) for ids in batch])
        return ragged(batch)

    monkeypatch.setattr(encoder, "encode_queries", asking)
    monkeypatch.setattr(encoder, "_forward_ragged", running)
    return ran, vectors


@pytest.mark.parametrize("query", REPEATING)
def test_a_search_runs_each_text_once(
    bundled_index: SearchIndex, monkeypatch: pytest.MonkeyPatch, query: str
) -> None:
    assert bundled_index.semantic is not None
    encoder = bundled_index.semantic.encoder
    ran, _ = _watched(monkeypatch, encoder)
    bundled_index.search(query)
    assert len(ran) >= 1
    every = [key for run in ran for key in run]
    assert len(every) == len(set(every))  # failed before: a text ran in two passes


@pytest.mark.parametrize("query", REPEATING)
def test_remembered_vectors_and_answers_are_the_same_to_the_bit(
    bundled_index: SearchIndex, monkeypatch: pytest.MonkeyPatch, query: str
) -> None:
    assert bundled_index.semantic is not None
    encoder = bundled_index.semantic.encoder
    ran, vectors = _watched(monkeypatch, encoder)
    remembering = bundled_index.search(query)
    with_memory = [v.copy() for v in vectors]
    rows = sum(len(run) for run in ran)
    ran.clear()
    vectors.clear()
    monkeypatch.setattr("bot.search.semantic.encoder.known_vectors", lambda: None)
    fresh = bundled_index.search(query)
    assert sum(len(run) for run in ran) > rows  # without memory the repeated texts run again
    assert fresh == remembering
    assert len(vectors) == len(with_memory)
    for old, new in zip(vectors, with_memory, strict=True):
        assert np.array_equal(old, new)


def test_nothing_is_kept_between_searches(
    bundled_index: SearchIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert bundled_index.semantic is not None
    encoder = bundled_index.semantic.encoder
    ran, _ = _watched(monkeypatch, encoder)
    bundled_index.search(REPEATING[0])
    first = list(ran)
    ran.clear()
    bundled_index.search(REPEATING[0])
    assert ran == first  # the same passes again: a bench replaying a query times the encoder
    assert known_vectors() is None


def test_a_caller_writing_to_its_vectors_changes_no_remembered_one(
    bundled_index: SearchIndex,
) -> None:
    assert bundled_index.semantic is not None
    encoder = bundled_index.semantic.encoder
    texts = ["what is a kv cache", "and speculative decoding"]
    alone = encoder.encode_queries(texts)
    with one_search():
        first = encoder.encode_queries(texts)
        first *= 0.0
        again = encoder.encode_queries([texts[1], "a third text", texts[0]])
        again[:] = 1.0
        last = encoder.encode_queries(texts)
        with one_search():  # a search inside a search shares what the outer one knows
            inner = known_vectors()
        assert inner is known_vectors()
        assert inner is not None
        assert len(inner) == 3
    assert np.array_equal(last, alone)
    assert known_vectors() is None
