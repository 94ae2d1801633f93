"""No input crashes search, autocomplete or term finding, and autocomplete keeps Discord's limits."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.glossary.keys import compact, normalize
from bot.limits import AUTOCOMPLETE_CHOICES, AUTOCOMPLETE_NAME, AUTOCOMPLETE_VALUE
from bot.search import SearchIndex

# Any Unicode, with the awkward parts over-represented: controls, zero-width and bidi marks,
# combining marks, full-width forms, markup and separators.
AWKWARD = st.sampled_from(
    list("\x00\x01\t\n\r\x7f\u200b\u200d\u200e\u202e\u2066\ufeff\u0301\u0308ＡＢｃ`*_~|>\"'’“-/.?")
)
TEXT = st.lists(st.one_of(st.characters(), AWKWARD), max_size=80).map("".join)
LONG_TEXT = st.builds(lambda s, n: (s or "x") * n, TEXT, st.integers(1, 6000)).map(
    lambda s: s[:6000]
)
ANY_TEXT = st.one_of(TEXT, LONG_TEXT, st.just(""), st.just(" " * 6000))
OVERLAY = st.one_of(
    st.none(),
    st.dictionaries(TEXT, st.sampled_from(["kv-cache", "rag", "missing-id", ""]), max_size=4),
)
QUICK = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@QUICK
@given(text=ANY_TEXT)
def test_normalize_is_idempotent_and_clean(text: str) -> None:
    once = normalize(text)
    assert normalize(once) == once
    assert once == once.strip()
    assert "  " not in once
    assert " " not in compact(text)


@QUICK
@given(query=ANY_TEXT, overlay=OVERLAY)
def test_search_never_crashes(
    bundled_index: SearchIndex, query: str, overlay: dict[str, str] | None
) -> None:
    result = bundled_index.search(query, overlay)
    assert result.status in ("match", "suggest", "none")
    assert (result.entry is not None) == (result.status == "match")
    assert 0.0 <= result.score <= 100.0
    assert len(result.suggestions) <= 5
    if result.entry is not None:
        assert result.entry.id not in {s.id for s in result.suggestions}


@QUICK
@given(
    text=ANY_TEXT,
    overlay=OVERLAY,
    popular=st.lists(st.sampled_from(["kv-cache", "rag", "nope", ""]), max_size=30),
    limit=st.integers(-5, 100),
)
def test_autocomplete_keeps_discord_limits(
    bundled_index: SearchIndex,
    text: str,
    overlay: dict[str, str] | None,
    popular: list[str],
    limit: int,
) -> None:
    choices = bundled_index.autocomplete(text, overlay, popular, limit)
    assert len(choices) <= min(AUTOCOMPLETE_CHOICES, max(limit, 0))
    values = [c.value for c in choices]
    assert len(values) == len(set(values))
    for choice in choices:
        assert 1 <= len(choice.name) <= AUTOCOMPLETE_NAME
        assert choice.name.strip()
        assert 1 <= len(choice.value) <= AUTOCOMPLETE_VALUE


@QUICK
@given(text=ANY_TEXT, overlay=OVERLAY, context=st.one_of(st.none(), TEXT))
def test_find_terms_never_crashes(
    bundled_index: SearchIndex, text: str, overlay: dict[str, str] | None, context: str | None
) -> None:
    mentions = bundled_index.find_terms(text, overlay, context)
    ids = [m.entry_id for m in mentions]
    assert len(ids) == len(set(ids))
    starts = [m.start for m in mentions]
    assert starts == sorted(starts)
    for mention in mentions:
        assert text[mention.start : mention.end] == mention.surface


@QUICK
@given(
    words=st.lists(st.sampled_from(["kv", "cache", "RAG", "rag", "the", "LoRA", "a"]), max_size=30)
)
def test_find_terms_on_term_soup(bundled_index: SearchIndex, words: list[str]) -> None:
    text = " ".join(words)
    for mention in bundled_index.find_terms(text):
        assert text[mention.start : mention.end] == mention.surface
