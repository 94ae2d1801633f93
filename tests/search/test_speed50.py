"""Task speed50: several texts embedded in ONE encoder pass (`Encoder.encode_queries`: the
linear products over every text's rows, attention and the mean within each text), and the
search embedding the texts its rules read alone (the asking clause, the message without its
asker's framing) in the message's own pass. A vector may differ from the text's own pass by
rounding only."""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import pytest

from bot.search import SearchIndex, foreign
from bot.search.semantic.encoder import QUERY_TOKENS, Encoder, shared_encoder

CLOSE = 0.99999  # cosine: rounding, as the padded batch and the lone query agree

TEXTS = [
    "what is a kv cache",
    "gpu",
    "why does my model forget what i told it three messages ago",
    "naïve bayes — über schnell? 🤖",
    " ".join(["attention heads look at other tokens"] * 20),  # over the 64-token cut
]


def _each_alone(encoder: Encoder, texts: Sequence[str], max_tokens: int) -> list[np.ndarray]:
    return [encoder.encode_queries([t], max_tokens)[0] for t in texts]


def _agree(together: np.ndarray, alone: Sequence[np.ndarray], texts: Sequence[str]) -> None:
    assert together.shape == (len(texts), len(alone[0]))
    for text, row, own in zip(texts, together, alone, strict=True):
        assert float(row @ own) > CLOSE, text
        assert abs(float(np.linalg.norm(row)) - 1.0) < 1e-5, text


def test_texts_in_one_pass_get_their_own_vectors() -> None:
    encoder = shared_encoder()
    _agree(encoder.encode_queries(TEXTS), _each_alone(encoder, TEXTS, QUERY_TOKENS), TEXTS)
    # and the padded batch's (the entries' way), and the lone query's
    padded = encoder.encode(TEXTS, max_tokens=QUERY_TOKENS)
    _agree(encoder.encode_queries(TEXTS), list(padded), TEXTS)
    assert np.array_equal(encoder.encode_queries(TEXTS[:1])[0], encoder.encode_query(TEXTS[0]))


def test_an_empty_text_beside_others() -> None:
    """ "" is [CLS] [SEP]: two rows of its own, wherever it sits in the pass."""
    encoder = shared_encoder()
    for texts in (["", "what is a kv cache"], ["what is a kv cache", ""], ["", ""]):
        _agree(encoder.encode_queries(texts), _each_alone(encoder, texts, QUERY_TOKENS), texts)


def test_texts_of_very_different_lengths() -> None:
    """One word beside a text at the cut, either order: no text reads another's rows."""
    encoder = shared_encoder()
    long = " ".join(["the model keeps the keys and values of past tokens"] * 8)
    for texts in (["rag", long], [long, "rag"], ["rag", long, "x", long[:40]]):
        _agree(encoder.encode_queries(texts), _each_alone(encoder, texts, QUERY_TOKENS), texts)


def test_the_models_256_token_cap() -> None:
    """Texts cut at the model's longest input (256 tokens, positions and all) beside short ones."""
    encoder = shared_encoder()
    long = " ".join(["attention heads look at other tokens"] * 60)
    assert len(encoder.tokenizer.encode(long, 256)) == 256
    texts = [long, "what is a kv cache", long[:500]]
    together = encoder.encode_queries(texts, 256)
    _agree(together, _each_alone(encoder, texts, 256), texts)
    _agree(together, list(encoder.encode(texts, max_tokens=256)), texts)


@pytest.fixture
def passes(bundled_index: SearchIndex, monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The texts of each encoder pass the bundled index's searches make."""
    assert bundled_index.semantic is not None
    encoder = bundled_index.semantic.encoder
    made: list[list[str]] = []
    real = encoder.encode_queries

    def counted(texts: Sequence[str], *args: int, **kwargs: bool) -> np.ndarray:
        made.append(list(texts))
        return real(texts, *args, **kwargs)

    monkeypatch.setattr(encoder, "encode_queries", counted)
    return made


@pytest.mark.parametrize(
    ("query", "alone"),
    [
        # context, then the question (`_asked_clause_agreeing`)
        ("we serve llama with vllm. what is a kv cache", "what is a kv cache"),
        # who asks, then what (`_unframed_agreeing`)
        (
            "a parent in our school group asked if the ai can forget a name?",
            "if the ai can forget a name",
        ),
    ],
)
def test_a_text_read_alone_rides_on_the_messages_pass(
    bundled_index: SearchIndex, passes: list[list[str]], query: str, alone: str
) -> None:
    bundled_index.search(query)
    assert len(passes) == 1
    assert passes[0][1:] == [alone]


def test_a_search_answers_as_with_each_text_embedded_alone(
    bundled_index: SearchIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pass shared changes no answer: the same search with every text embedded in its own
    pass (as before speed50) gives the same result."""
    queries = [
        "we serve llama with vllm. what is a kv cache",
        "we run a small discord for our bakery. how does the bot pick its next word?",
        "a parent in our school group asked if the ai can forget a name?",
        "our soccer parents asked which app stores the kids photos",
    ]
    together = [bundled_index.search(q) for q in queries]
    assert bundled_index.semantic is not None
    encoder = bundled_index.semantic.encoder
    real = encoder.encode_queries

    def one_by_one(texts: Sequence[str], *args: int, **kwargs: bool) -> np.ndarray:
        return np.stack([real([t], *args)[0] for t in texts])

    monkeypatch.setattr(encoder, "encode_queries", one_by_one)
    for query, shared in zip(queries, together, strict=True):
        own = bundled_index.search(query)
        assert (own.status, own.best_id, [s.id for s in own.suggestions]) == (
            shared.status,
            shared.best_id,
            [s.id for s in shared.suggestions],
        ), query
        assert own.score == pytest.approx(shared.score, abs=1e-4), query


def test_every_foreign_way_compiles() -> None:
    """The table's ways are compiled where a text first tries them (start-up): each must still
    compile, as it did when all were compiled up front."""
    by_start, scripts = foreign._forms()
    forms = [form for found in by_start.values() for form in found]
    forms += [form for _, form in scripts]
    assert len(forms) > 250
    for form in forms:
        assert form.pattern.flags & re.IGNORECASE, form.source
        assert form.pattern is form.pattern  # compiled once
