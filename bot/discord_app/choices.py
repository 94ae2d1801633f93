"""Autocomplete choices cut to what Discord accepts: 25 at most, each a name of 1-100 characters
and a string value of at most 100 (`bot.limits`, as Discord's documentation has them; its OpenAPI
file lets a value have 6,000, and the stricter documented limit is kept)."""

from __future__ import annotations

from collections.abc import Iterable

from discord import app_commands

from bot import limits
from bot.glossary.letters import fit_names


def fitted_choices(pairs: Iterable[tuple[str, str]]) -> list[app_commands.Choice[str]]:
    """The first 25 (name, value) pairs that make a choice, each name fitted to Discord's
    length keeping its start and its end (`fit_names`: two long titles stay apart). A pair
    whose value is too long is left out, not cut: a value cut short would pick something else.
    So is one whose name is blank."""
    kept: list[tuple[str, str]] = []
    for name, value in pairs:
        if name.strip() and len(value) <= limits.AUTOCOMPLETE_VALUE:
            kept.append((name, value))
            if len(kept) == limits.AUTOCOMPLETE_CHOICES:
                break
    shown = fit_names([name for name, _ in kept], limits.AUTOCOMPLETE_NAME)
    return [
        app_commands.Choice(name=name, value=value)
        for name, (_, value) in zip(shown, kept, strict=True)
    ]
