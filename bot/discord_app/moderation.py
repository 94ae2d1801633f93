"""Moderator commands (`/alias`, `/glossary stats`): registered when storage is available."""

from __future__ import annotations

from typing import Any

from discord import app_commands


def register(tree: app_commands.CommandTree[Any]) -> None:
    """Add the moderator commands to the tree."""
