"""Cutting text to Discord's limits at a sentence boundary, with a visible marker."""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.glossary.letters import whole_letters_cut

MARKER = " […]"
_SENTENCE_END = re.compile(r"[.!?](?=\s)")


def fit(text: str, limit: int) -> str:
    """`text` if it fits in `limit` characters; else its longest whole-sentence (or word) prefix
    that fits with the marker. Never longer than `limit`."""
    text = text.strip()
    if len(text) <= limit:
        return text
    room = limit - len(MARKER)
    if room <= 0:  # no room for the marker
        return _escapes_whole(text[: whole_letters_cut(text, limit)])
    head = text[: whole_letters_cut(text, room)]
    ends = [m.end() for m in _SENTENCE_END.finditer(head + " ")]
    if ends and ends[-1] >= room // 3:
        return head[: ends[-1]] + MARKER
    space = head.rfind(" ")
    return (head[:space] if space >= room // 3 else _escapes_whole(head)).rstrip() + MARKER


def _escapes_whole(head: str) -> str:
    """`head`, cut inside a word, less a backslash the cut parted from what it escapes (text
    given back escaped, "\\*" for a typed "*"): alone it would be shown, a stray."""
    run = len(head) - len(head.rstrip("\\"))
    return head[:-1] if run % 2 else head


def fit_lines(lines: Sequence[str], limit: int) -> tuple[str, int]:
    """The first of `lines` that fit whole in `limit` characters, joined by newlines, and how
    many that is (a list cut mid-line would hide that the rest exists)."""
    used = 0
    for count, line in enumerate(lines):
        used += len(line) + (1 if count else 0)
        if used > limit:
            return "\n".join(lines[:count]), count
    return "\n".join(lines), len(lines)
