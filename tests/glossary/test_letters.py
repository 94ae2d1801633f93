"""Cutting text between whole letters, for every limit text is fitted to (cards, choices)."""

from __future__ import annotations

import pytest

from bot.glossary.letters import whole_letters_cut

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
