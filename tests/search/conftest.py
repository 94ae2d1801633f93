"""Search test fixtures: a small hand-made glossary (each strategy in isolation), the bundled
one (relevance), the made-up servers' indexes (`server_indexes`), and the shared encoder's
passes counted (`ragged_passes`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from bot.glossary import load_glossary
from bot.glossary.models import Entry, SourceText
from bot.search import SearchIndex
from bot.search.local import compile_local, with_vectors
from bot.search.semantic.term_vectors import TermVectors

from .server_term_calib import SERVERS, Server

if TYPE_CHECKING:
    import numpy as np

    from bot.search.semantic.encoder import Encoder

# the probe files' expectations (`probe_files`) assert as a test module's do, showing values
pytest.register_assert_rewrite("tests.search.probe_files")


def make_entry(entry_id: str, title: str, definition: str = "", **fields: Any) -> Entry:
    """An entry with one source, as the loaders would produce it."""
    definition = definition or f"The definition of {title}."
    source = SourceText(source="test", local_id=entry_id, title=title, definition=definition)
    fields.setdefault("category", "Fundamentals")
    return Entry(id=entry_id, title=title, definition=definition, sources=(source,), **fields)


SMALL_GLOSSARY = (
    make_entry(
        "kv-cache",
        "KV Cache",
        "The stored keys and values of past tokens that let decode attend without recomputation.",
        acronym="KV",
        aliases=("key-value cache",),
        keywords=("keys and values", "decode"),
    ),
    make_entry(
        "rag",
        "Retrieval-Augmented Generation",
        "Fetching relevant documents at query time and placing them in the prompt.",
        acronym="RAG",
    ),
    make_entry(
        "rag-cloth", "rag", "A piece of old cloth, especially one torn from a larger piece."
    ),
    make_entry(
        "adamw",
        "AdamW",
        "The default optimizer for transformers: Adam with weight decay decoupled from the "
        "gradient update.",
        aliases=("Adam with decoupled weight decay",),
    ),
    make_entry(
        "speculative-decoding",
        "Speculative Decoding",
        "Drafting several tokens with a small fast model and verifying them in one pass of the "
        "large model.",
        aliases=("speculative sampling",),
    ),
    make_entry(
        "gguf",
        "GGUF",
        "A file format for quantized models used by llama.cpp.",
        aliases=("GPT-Generated Unified Format",),
    ),
    make_entry(
        "training-step",
        "Step",
        "One optimizer update of the model's weights.",
        match_terms=("training step", "steps"),
        match_exclusions=("Vision.Steps", "Workflow."),
    ),
    make_entry("python", "Python", "A programming language.", match_terms=("Python",)),
    make_entry("pytorch", "PyTorch", "A deep learning framework for Python."),
    make_entry(
        "tokenization", "Tokenization", "Splitting text into tokens.", aliases=("tokenizer",)
    ),
    make_entry(
        "serving-goodput",
        "Goodput (Serving)",
        "Throughput counted only over requests that meet their latency targets.",
    ),
    make_entry(
        "training-goodput",
        "Training Goodput",
        "The fraction of wall-clock time a training run spends making real progress.",
    ),
    make_entry(
        "rotary-position-embedding",
        "Rotary Position Embedding",
        "Position encoding that rotates query and key vectors by an angle set by position.",
        acronym="RoPE",
    ),
)


@pytest.fixture(scope="session")
def small_index() -> SearchIndex:
    return SearchIndex.build(SMALL_GLOSSARY)


@pytest.fixture(scope="session")
def bundled_index() -> SearchIndex:
    return SearchIndex.build(load_glossary())


@pytest.fixture(scope="session")
def server_indexes(
    bundled_index: SearchIndex, tmp_path_factory: pytest.TempPathFactory
) -> list[tuple[Server, SearchIndex]]:
    """Each of server_term_calib's made-up servers with its terms embedded (test_calibration,
    test_server_term_calib)."""
    assert bundled_index.semantic is not None
    vectors = TermVectors(bundled_index.semantic.encoder, tmp_path_factory.mktemp("vectors"))
    built = []
    for server in SERVERS:
        local = compile_local(load_glossary(), bundled_index, server.terms, {}, vectors=vectors)
        vectors.embed([text for _, text in local.texts])
        built.append((server, with_vectors(local, vectors).index))
    return built


@pytest.fixture
def ragged_passes(monkeypatch: pytest.MonkeyPatch) -> tuple[Encoder, list[list[int]]]:
    """The shared encoder, and the token rows of each text in each ragged pass it runs from now
    on (a list a pass): what a test of how texts share a pass counts."""
    from bot.search.semantic.encoder import shared_encoder  # the model: only where it is used

    encoder = shared_encoder()
    made: list[list[int]] = []
    real = encoder._forward_ragged

    def counted(batch: list[list[int]]) -> np.ndarray:
        made.append([len(ids) for ids in batch])
        return real(batch)

    monkeypatch.setattr(encoder, "_forward_ragged", counted)
    return encoder, made


# Probes of earlier tasks that passed only through an "asked as" line sharing 8 or more words in
# a row with a test file's row (most with the probe itself), kept as strict expected failures:
# twins77 took the 148 such lines out (tests/glossary/test_asked_as_data.py's shared-run check).
# ask76's and desc76's moved probes (MOVED_BY_ASK76, MOVED_BY_DESC76) all pass again: the line
# that moved each was found by taking lines out one at a time and rewritten (semantic.md
# "twins77"). A probe that passes again fails here: take it off the list.
LIFTED_BY_COPIES = {
    "test_voice59.py::test_an_opened_question_gets_the_asked_card"
    "[nurse: what do you call the limit on how much text the model can read at once?"
    "-context-windows-nurse:]",
    "test_voice59.py::test_an_opened_question_is_searched_as_the_bare_one"
    "[nurse: what do you call the limit on how much text the model can read at once?-nurse:]",
    # the opened and the bare question offer gguf, llama-cpp and training in another order
    "test_voice59.py::test_an_opened_question_is_searched_as_the_bare_one[query12-long one, sorry:]",
    "test_offer72.py::test_a_described_chat_question_gets_its_card"
    "[what do you call asking the model to think step by step before it answers?"
    "-chain-of-thought--]",
    "test_bar56.py::test_an_unnamed_clear_leader_is_the_card"
    "[sorry one more q, same prompt twice and i got two different replies, is something broken"
    "-sampling]",
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        named = f"{item.path.name}::{item.name}"
        if named in LIFTED_BY_COPIES:
            reason = "passed through a copied asked-as line"
            item.add_marker(pytest.mark.xfail(strict=True, reason=reason))
