"""Autocomplete choices cut to what Discord accepts: 25 at most, each a name of 1-100 characters
and a string value of at most 100 (`bot.limits`, as Discord's documentation has them; its OpenAPI
file lets a value have 6,000, and the stricter documented limit is kept)."""

from __future__ import annotations

from collections.abc import Iterable

from discord import app_commands

from bot import limits
from bot.glossary.letters import fit_name


def fitted_choices(pairs: Iterable[tuple[str, str]]) -> list[app_commands.Choice[str]]:
    """The first 25 (name, value) pairs that make a choice, each name fitted to Discord's
    length keeping its start and its end (two long titles stay apart). A pair whose value is
    too long is left out, not cut: a value cut short would pick something else. So is one
    whose name is blank."""
    made: list[app_commands.Choice[str]] = []
    for name, value in pairs:
        shown = fit_name(name, limits.AUTOCOMPLETE_NAME)
        if shown and len(value) <= limits.AUTOCOMPLETE_VALUE:
            made.append(app_commands.Choice(name=shown, value=value))
            if len(made) == limits.AUTOCOMPLETE_CHOICES:
                break
    return made
