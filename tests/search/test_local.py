"""A server's own glossary compiled for search: its terms found like bundled entries, the
bundled ones still found by meaning, and nothing rebuilt that did not change."""

from __future__ import annotations

from bot.glossary import load_glossary
from bot.glossary.server_terms import ServerTerm
from bot.search.index import SearchIndex
from bot.search.local import compile_local

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
