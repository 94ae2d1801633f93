"""Cutting text to Discord's limits at a sentence boundary, with a visible marker."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

MARKER = " […]"
_SENTENCE_END = re.compile(r"[.!?](?=\s)")


def fit(text: str, limit: int) -> str:
    """`text` if it fits in `limit` characters; else its longest whole-sentence (or word) prefix
    that fits with the marker. Never longer than `limit`."""
    text = text.strip()
    if len(text) <= limit:
        return text
    room = limit - len(MARKER)
    if room <= 0:
        return text[:limit]
    head = text[: _whole_letters(text, room)]
    ends = [m.end() for m in _SENTENCE_END.finditer(head + " ")]
    if ends and ends[-1] >= room // 3:
        return head[: ends[-1]] + MARKER
    space = head.rfind(" ")
    return (head[:space] if space >= room // 3 else head).rstrip() + MARKER


def _whole_letters(text: str, cut: int) -> int:
    """`cut`, moved back so as not to split a letter from its marks (an accent, a Thai or
    Devanagari vowel sign) or a conjunct at its virama or joiner: a hard cut in a script
    written without spaces would show half a syllable."""
    while 0 < cut < len(text) and (
        unicodedata.category(text[cut]).startswith("M")
        or text[cut] == "\u200d"
        or unicodedata.combining(text[cut - 1]) == 9  # a virama: the next letter joins it
        or text[cut - 1] == "\u200d"
    ):
        cut -= 1
    return cut


def fit_lines(lines: Sequence[str], limit: int) -> tuple[str, int]:
    """The first of `lines` that fit whole in `limit` characters, joined by newlines, and how
    many that is (a list cut mid-line would hide that the rest exists)."""
    used = 0
    for count, line in enumerate(lines):
        used += len(line) + (1 if count else 0)
        if used > limit:
            return "\n".join(lines[:count]), count
    return "\n".join(lines), len(lines)
