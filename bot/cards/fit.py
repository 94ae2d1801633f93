"""Cutting lists to Discord's limits: whole lines (text is cut at a sentence boundary, with a
visible marker, by `bot.glossary.letters.fit`)."""

from __future__ import annotations

from collections.abc import Iterable


def fit_lines(lines: Iterable[str], limit: int) -> tuple[str, int]:
    """The first of `lines` that fit whole in `limit` characters, joined by newlines, and how
    many that is (a list cut mid-line would hide that the rest exists). Lines are taken only
    until one does not fit: a generator makes no more of them than are shown."""
    kept: list[str] = []
    used = 0
    for line in lines:
        used += len(line) + (1 if kept else 0)
        if used > limit:
            break
        kept.append(line)
    return "\n".join(kept), len(kept)
