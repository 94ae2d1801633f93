"""product71: a message of many openers ("ok so, " x 570) was quadratic to read: the short
question's opener (`_OPENS_SHORT_QUESTION`, which reads to the first "what" or "how") was tried
again after each greeting dropped. Counted, not timed (bench/hostile_bench.py times it)."""

from __future__ import annotations

import re

import pytest

from bot.search import chat


class _Counted:
    """A pattern that counts the characters its `match` is given."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.read = 0

    def match(self, text: str) -> re.Match[str] | None:
        self.read += len(text)
        return self.pattern.match(text)


@pytest.mark.parametrize(
    ("text", "read"),
    [
        (("ok so, " * 600)[:3996] + " rag", "rag"),
        ("hey all, sorry, " * 249 + "rag", "rag"),
        ("ok so, " * 3 + "wait so what is rag", "what is rag"),
        ("hey guys, new here, what's a kv cache?", "what's a kv cache?"),
    ],
    ids=["openers", "greetings", "short question", "preamble"],
)
def test_the_short_questions_opener_is_read_once_the_greetings_are_gone(
    monkeypatch: pytest.MonkeyPatch, text: str, read: str
) -> None:
    """The opener is tried on what is left once the greetings and preambles are dropped (and
    again only after it dropped something): at most twice the text's length read, where each of
    the 570 "ok so, " read the rest again (about 1.1 million characters); the text read the
    same."""
    counted = _Counted(chat._OPENS_SHORT_QUESTION)
    monkeypatch.setattr(chat, "_OPENS_SHORT_QUESTION", counted)
    assert chat._opening_dropped(text) == read
    assert counted.read <= 2 * len(text), counted.read
