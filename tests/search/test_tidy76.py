"""tidy76: the last closing note's loose ends in search (tests/outsider/PLAN.md, "## tidy76")."""

from __future__ import annotations

from bot.glossary import load_glossary
from bot.glossary.keys import normalize
from bot.glossary.server_terms import ServerTerm
from bot.search import SearchIndex
from bot.search.local import compile_local
from bot.search.query import query_core, typed_core


def test_the_products_are_read_where_the_index_is_built() -> None:
    """tidy76 item 6: setting75's `SearchIndex._products` (tens of ms) was built by the first
    query that reached it, on the event loop, once per index, a server's own too. Now it is
    built with the index (off the loop), as the trigrams and the full text are; an index built
    on demand (a one-shot command) still builds it when first asked."""
    glossary = load_glossary()
    bundled = SearchIndex.build(glossary, semantic=False)
    assert "_products" in vars(bundled)
    assert bundled._products["llava"] == bundled.positions["vision-language-models"]
    term = ServerTerm(
        id="zorb", title="Zorb Engine", definition="Our made-up engine.", category="Fundamentals"
    )
    local = compile_local(glossary, bundled, [term], {})
    assert "_products" in vars(local.index)
    assert local.index._products == bundled._products
    on_demand = SearchIndex.build(glossary, semantic=False, on_demand=True)
    assert "_products" not in vars(on_demand)


def test_a_slash_between_two_letters_is_part_of_a_name() -> None:
    """tidy76 item 5: search read "A/B testing" as "b testing": `normalize` writes the slash as
    a space, and the "a" left in front was taken for the article. Search's core of a text now
    keeps two single letters with a slash between them as one name; without a slash, "a" is
    still the article ("what is a b tree" asks about "b tree")."""
    for typed, core in (
        ("A/B testing", "a b testing"),
        ("what is a/b testing", "a b testing"),
        ("whats A/B testing pls", "a b testing"),
        ("explain a/b", "a b"),
        ("what does i/o bound mean", "i o bound"),
        ("what is a b tree", "b tree"),
        ("what is a/b testing and a/b", "a b testing and a b"),
        ("what is tcp/ip", "tcp ip"),
    ):
        assert typed_core(normalize(typed), typed) == core, typed
    assert query_core(normalize("A/B testing")) == "b testing"  # what search read before
