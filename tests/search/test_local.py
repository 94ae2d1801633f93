"""A server's own glossary compiled for search: its terms found like bundled entries, the
bundled ones still found by meaning, and nothing rebuilt that did not change."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

import pytest

from bot.glossary import load_glossary
from bot.glossary.server_terms import ServerTerm
from bot.search.index import SearchIndex
from bot.search.local import LocalGlossary, compile_local, with_vectors
from bot.search.results import SearchResult
from bot.search.semantic.term_vectors import TermVectors
from bot.search.semantic.vectors import TextEncoder, Vectors

from .server_term_meanings import DESCRIBED, GLORP, RAID_TAX, STANDUP_BINGO, TERMS

ZORBLAX = ServerTerm(
    id="zorblax",
    title="Zorblax",
    definition="The team's nightly batch job that re-ranks retrieved documents.",
    category="Retrieval & Context",
    aliases=("zbx",),
)


def test_server_terms_join_the_bundled_glossary(bundled_index: SearchIndex) -> None:
    bundled = load_glossary()
    local = compile_local(bundled, bundled_index, [ZORBLAX], {"zorb job": "zorblax"})
    assert local.index.search("zbx").entry.id == "zorblax"  # type: ignore[union-attr]
    found = local.index.search("zorb job", local.aliases).entry
    assert found is not None
    assert found.id == "zorblax"
    assert local.glossary.get("zorblax") is not None
    # The bundled entries keep their positions, so the meaning stage serves unchanged.
    assert local.index.semantic is bundled_index.semantic
    for entry in bundled:
        assert local.index.positions[entry.id] == bundled_index.positions[entry.id]
    meaning = "storing attention keys and values so they are not recomputed every token"
    assert local.index.search(meaning).entry == bundled_index.search(meaning).entry


def test_only_what_changed_is_compiled_again(bundled_index: SearchIndex) -> None:
    bundled = load_glossary()
    first = compile_local(bundled, bundled_index, [ZORBLAX], {})
    aliases_changed = compile_local(bundled, bundled_index, [ZORBLAX], {"zb": "zorblax"}, first)
    assert aliases_changed.index is first.index
    same = compile_local(bundled, bundled_index, [ZORBLAX], {"zb": "zorblax"}, aliases_changed)
    assert same.aliases is aliases_changed.aliases
    none = compile_local(bundled, bundled_index, [], {}, same)
    assert none.index is bundled_index


# -- server terms by meaning (issue 12) ---------------------------------------------------------


class CountingEncoder:
    """The real encoder, counting the texts it is asked to embed."""

    def __init__(self, encoder: TextEncoder) -> None:
        self.real = encoder
        self.texts: list[str] = []

    @property
    def fingerprint(self) -> str:
        return self.real.fingerprint

    @property
    def dimensions(self) -> int:
        return self.real.dimensions

    def encode(self, texts: Sequence[str]) -> Vectors:
        self.texts.extend(texts)
        return self.real.encode(texts)

    def encode_query(self, text: str) -> Vectors:
        return self.real.encode_query(text)


def answered_with(result: SearchResult, term: ServerTerm) -> bool:
    """The term's card, or (the thresholds are the bundled entries' own, which have "asked as"
    phrasings to meet descriptions with, and server terms have not) the first choice offered."""
    if result.entry is not None:
        return result.entry.id == term.id
    return bool(result.suggestions) and result.suggestions[0].id == term.id


def embedded_local(
    bundled_index: SearchIndex, terms: Sequence[ServerTerm], vectors: TermVectors
) -> LocalGlossary:
    local = compile_local(load_glossary(), bundled_index, terms, {}, vectors=vectors)
    vectors.embed([text for _, text in local.texts])
    return with_vectors(local, vectors)


@pytest.fixture
def encoder(bundled_index: SearchIndex) -> CountingEncoder:
    assert bundled_index.semantic is not None
    return CountingEncoder(bundled_index.semantic.encoder)


@pytest.mark.parametrize(("description", "term"), DESCRIBED, ids=[t.id for _, t in DESCRIBED])
def test_a_server_term_is_found_by_what_it_means(
    bundled_index: SearchIndex,
    encoder: CountingEncoder,
    tmp_path: Path,
    description: str,
    term: ServerTerm,
) -> None:
    vectors = TermVectors(encoder, tmp_path)
    lexical = compile_local(load_glossary(), bundled_index, TERMS, {}, vectors=vectors)
    assert not lexical.complete  # nothing embedded at compile time
    vectors.embed([text for _, text in lexical.texts])
    local = with_vectors(lexical, vectors)
    assert local.complete
    assert local.index.names is lexical.index.names  # the lexical parts are not rebuilt
    assert answered_with(local.index.search(description), term)
    # Its own server only: the bundled glossary (other servers, DMs) has no such card.
    elsewhere = bundled_index.search(description)
    assert term.id not in {s.id for s in elsewhere.suggestions}
    assert elsewhere.entry is None or elsewhere.entry.id != term.id


def test_a_term_overlaying_a_bundled_entry_is_one_card_found_by_either_wording(
    bundled_index: SearchIndex, encoder: CountingEncoder, tmp_path: Path
) -> None:
    ours = ServerTerm(
        id="ours-kv",
        title="KV Cache",
        definition="What our inference box keeps in GPU memory between tokens so the chat bot "
        "does not redo work for every word it writes.",
        category="Inference & Serving",
    )
    local = embedded_local(bundled_index, [ours], TermVectors(encoder, tmp_path))
    assert local.embedded == 2
    assert local.index.semantic is not None
    position = bundled_index.positions["kv-cache"]
    owners = [
        p
        for p, _ in local.index.semantic.similar(
            "memory the chat bot keeps so it does not redo work for each word", 10
        )
    ]
    assert owners.count(position) == 1
    assert len(owners) == len(set(owners))
    assert local.glossary.entries[position].title == "KV Cache"


def test_vectors_are_embedded_once_across_servers_and_restarts(
    bundled_index: SearchIndex, encoder: CountingEncoder, tmp_path: Path
) -> None:
    vectors = TermVectors(encoder, tmp_path)
    first = embedded_local(bundled_index, TERMS, vectors)
    assert len(encoder.texts) == 2 * len(TERMS)
    # Another server with the same terms: nothing more to embed.
    assert embedded_local(bundled_index, TERMS, vectors).embedded == 2 * len(TERMS)
    assert len(encoder.texts) == 2 * len(TERMS)
    # A restart: the cache file holds them, and the answers are the same.
    after = TermVectors(encoder, tmp_path)
    local = compile_local(load_glossary(), bundled_index, TERMS, {}, vectors=after)
    assert local.complete
    assert len(encoder.texts) == 2 * len(TERMS)
    for description, _ in DESCRIBED:
        assert local.index.search(description).entry == first.index.search(description).entry
    # An edited term alone is embedded again.
    edited = GLORP.model_copy(update={"definition": GLORP.definition + " Kept in the wiki."})
    embedded_local(bundled_index, (STANDUP_BINGO, edited, RAID_TAX), after)
    assert len(encoder.texts) == 2 * len(TERMS) + 2


def test_an_unwritable_cache_still_embeds_and_says_so_once(
    bundled_index: SearchIndex,
    encoder: CountingEncoder,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", "utf-8")
    vectors = TermVectors(encoder, blocked)
    with caplog.at_level(logging.WARNING):
        embedded_local(bundled_index, TERMS[:1], vectors)
        local = embedded_local(bundled_index, TERMS, vectors)
    assert local.complete
    description, term = DESCRIBED[1]
    assert answered_with(local.index.search(description), term)
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]
    assert "GLOSSARY_CACHE_DIR" in warnings[0].getMessage()
