"""Cutting text between whole letters, for every limit text is fitted to (cards, choices)."""

from __future__ import annotations

import pytest

from bot.cards.chart import shorten
from bot.glossary.letters import MARKER, fit, whole_letters_cut

LETTERS = [
    "क्षि",  # a Devanagari conjunct (a virama joins its letters) and its vowel sign
    "ที่",  # a Thai letter with a vowel and a tone mark above it
    "e\u0301",  # an accent written apart from its letter
    "👩\u200d💻",  # an emoji sequence joined by ZWJ
    "🇯🇵",  # a flag: two regional indicators
    "👍🏽",  # an emoji and its skin tone
    "❤\ufe0f",  # a symbol and its emoji variation selector
    "1\ufe0f\u20e3",  # a keycap
    "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",  # a flag by tags
]


@pytest.mark.parametrize("letters", LETTERS)
def test_every_cut_falls_between_whole_letters(letters: str) -> None:
    text = letters * 5
    for cut in range(len(text) + 1):
        kept = whole_letters_cut(text, cut)
        assert 0 <= kept <= cut
        assert kept % len(letters) == 0, (cut, kept)
        assert cut - kept < len(letters)


def test_plain_text_is_cut_where_asked() -> None:
    assert [whole_letters_cut("abc", cut) for cut in range(5)] == [0, 1, 2, 3, 3]
    assert whole_letters_cut("", 3) == 0


def test_flags_side_by_side_are_cut_between_flags() -> None:
    flags = "🇯🇵🇫🇷🇩🇪"
    assert [whole_letters_cut(flags, cut) for cut in range(7)] == [0, 0, 2, 2, 4, 4, 6]


SPLIT_BEFORE = [  # real sequences whose cut at `len(text) - 1` would halve their last letter
    "🇯🇵🇫🇷🇩🇪",  # flags side by side
    "Japan 🇯🇵",
    "👍🏽👍🏿",  # skin tones
    "ok 🫱🏻\u200d🫲🏿",  # a handshake of two skin tones
]


@pytest.mark.parametrize("text", SPLIT_BEFORE)
def test_a_limit_shorter_than_the_marker_keeps_whole_letters(text: str) -> None:
    """`fit` to fewer characters than its marker " […]" takes (an embed's room nearly used up)
    cut with a plain slice: half a flag, a hand without its skin tone."""
    long = text + " and more words after it"
    for limit in range(1, len(MARKER) + 1):
        shown = fit(long, limit)
        assert len(shown) <= limit
        assert long.startswith(shown), (limit, shown)
        assert whole_letters_cut(long, len(shown)) == len(shown), (limit, shown)


@pytest.mark.parametrize("text", SPLIT_BEFORE)
def test_a_chart_shortens_a_term_name_between_whole_letters(text: str) -> None:
    """The /stats chart's term names (a server's own titles may hold flags and skin tones)
    are cut to `MAX_TERM_NAME` characters with "…": that cut was a plain slice."""
    for most in range(2, len(text) + 1):
        shown = shorten(text + "!", most)
        assert len(shown) <= most
        kept = shown.removesuffix("…")
        assert text.startswith(kept), (most, shown)
        assert whole_letters_cut(text, len(kept)) == len(kept), (most, shown)
