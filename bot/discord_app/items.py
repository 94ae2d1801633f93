"""The base of every button and select the bot sends. Their custom ids carry what they act on
(discord.py's DynamicItem), so they keep working days later and after a restart: no view state
in memory. A subclass says how to rebuild itself from its custom id (`restore`)."""

from __future__ import annotations

import re
from typing import Any, Generic, Self, TypeVar

import discord

I = TypeVar("I", bound=discord.ui.Item[Any])  # noqa: E741  (discord.py's own name for it)
ENTRY = r"(?P<entry>[a-z0-9][a-z0-9-]{0,70})"
OWNER = r"(?P<owner>[0-9]{1,20})"


class Restorable(discord.ui.DynamicItem[I], Generic[I], template=r"(?!)"):
    @classmethod
    def restore(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> Self:
        raise NotImplementedError

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        return cls.restore(match, item)


def options_of(item: discord.ui.Item[Any]) -> list[discord.SelectOption]:
    """The options a select was sent with (discord.py rebuilds it from the interaction)."""
    return list(getattr(item, "options", []))
