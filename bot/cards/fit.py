"""Cutting text to Discord's limits: at a sentence boundary, with a visible marker (`fit`), or
whole lines."""

from __future__ import annotations

from collections.abc import Sequence

# `fit` is at home with the letters it keeps whole: the glossary's problems cut with it too.
from bot.glossary.letters import MARKER, fit

__all__ = ["MARKER", "fit", "fit_lines"]


def fit_lines(lines: Sequence[str], limit: int) -> tuple[str, int]:
    """The first of `lines` that fit whole in `limit` characters, joined by newlines, and how
    many that is (a list cut mid-line would hide that the rest exists)."""
    used = 0
    for count, line in enumerate(lines):
        used += len(line) + (1 if count else 0)
        if used > limit:
            return "\n".join(lines[:count]), count
    return "\n".join(lines), len(lines)
