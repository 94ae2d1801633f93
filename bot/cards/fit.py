"""Cutting lists to Discord's limits: whole lines (text is cut at a sentence boundary, with a
visible marker, by `bot.glossary.letters.fit`)."""

from __future__ import annotations

from collections.abc import Sequence


def fit_lines(lines: Sequence[str], limit: int) -> tuple[str, int]:
    """The first of `lines` that fit whole in `limit` characters, joined by newlines, and how
    many that is (a list cut mid-line would hide that the rest exists)."""
    used = 0
    for count, line in enumerate(lines):
        used += len(line) + (1 if count else 0)
        if used > limit:
            return "\n".join(lines[:count]), count
    return "\n".join(lines), len(lines)
