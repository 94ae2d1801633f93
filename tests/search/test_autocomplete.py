"""Autocomplete while typing, within Discord's limits."""

from __future__ import annotations

import pytest

from bot.glossary.letters import MIDDLE_MARKER
from bot.search import SearchIndex

from .conftest import make_entry


def ids(choices: list) -> list[str]:  # type: ignore[type-arg]
    return [c.value for c in choices]


def test_empty_box_shows_popular_then_core_terms(small_index: SearchIndex) -> None:
    choices = small_index.autocomplete("", popular=["adamw", "no-such-id", "gguf", "adamw"])
    assert ids(choices)[:2] == ["adamw", "gguf"]  # unknown and repeated ids dropped
    assert len(choices) == len(set(ids(choices))) == len(small_index)  # then everything else


def test_limit_is_kept(small_index: SearchIndex) -> None:
    assert len(small_index.autocomplete("", limit=3)) == 3
    assert small_index.autocomplete("", limit=0) == []
    assert len(small_index.autocomplete("", limit=500)) <= 25


def test_short_prefix_finds_names(small_index: SearchIndex) -> None:
    assert ids(small_index.autocomplete("py"))[:2] == ["python", "pytorch"]


def test_prefix_hits_come_first(small_index: SearchIndex) -> None:
    found = ids(small_index.autocomplete("spec"))
    assert found[0] == "speculative-decoding"


def test_later_word_of_a_name(small_index: SearchIndex) -> None:
    assert "kv-cache" in ids(small_index.autocomplete("cache"))


def test_typo_while_typing(small_index: SearchIndex) -> None:
    assert ids(small_index.autocomplete("spculat"))[:1] == ["speculative-decoding"]


def test_popular_terms_rank_first_within_a_tier(small_index: SearchIndex) -> None:
    assert ids(small_index.autocomplete("py", popular=["pytorch"]))[:2] == ["pytorch", "python"]


def test_other_name_shown_beside_the_title(small_index: SearchIndex) -> None:
    choices = small_index.autocomplete("key-val")
    assert choices[0].value == "kv-cache"
    assert choices[0].name == "KV Cache — key-value cache"


def test_server_alias(small_index: SearchIndex) -> None:
    choices = small_index.autocomplete("kv", overlay={"kvc": "kv-cache", "kvx": "missing"})
    assert choices[0].value == "kv-cache"
    assert len(ids(choices)) == len(set(ids(choices)))


def test_question_phrasing_is_ignored(small_index: SearchIndex) -> None:
    assert ids(small_index.autocomplete("what is speculat"))[:1] == ["speculative-decoding"]


def test_nothing_close(small_index: SearchIndex) -> None:
    assert small_index.autocomplete("zzzzqqq") == []


# A Devanagari conjunct with its vowel sign, a letter with three accents, a ZWJ emoji sequence,
# a flag (two regional indicators), an emoji with its skin tone.
LETTERS = ["क्षि", "Z\u0301\u0302\u0303", "👩\u200d💻", "🇯🇵", "👍🏽"]


@pytest.mark.parametrize("shift", range(4))
@pytest.mark.parametrize("letters", LETTERS)
def test_a_long_name_is_cut_between_whole_letters(letters: str, shift: int) -> None:
    """Discord shows at most 100 characters of a choice: a longer title is cut, keeping its
    start and its end (as every choice's name: left59), never inside a syllable, a letter's
    accents or an emoji sequence."""
    title = "Zorb" + "x" * shift + letters * 60
    index = SearchIndex.build((make_entry("long", title),))
    (choice,) = index.autocomplete("zorb")
    assert len(choice.name) <= 100
    start, end = choice.name.split(MIDDLE_MARKER)
    assert title.startswith(start)
    assert title.endswith(end)
    assert (len(start) - 4 - shift) % len(letters) == 0, repr(start[-8:])
    assert len(end) % len(letters) == 0, repr(end[:8])


@pytest.mark.parametrize(
    "typed",
    ["<:x:123456789012345678> kv cac", "<@123456789012345678> kv cac", "**kv cac", "> kv cac"],
)
def test_discord_markup_before_a_term_is_not_part_of_it(
    small_index: SearchIndex, typed: str
) -> None:
    """Round 21's O20: `/define` blanks a custom emoji, a mention or markdown around a term
    (`without_chat_markup`), and autocomplete offered nothing for the same text in its box."""
    assert ids(small_index.autocomplete(typed))[:1] == ["kv-cache"]
