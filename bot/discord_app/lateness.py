"""How late an interaction reaches the bot, for the autocompletes answered too late to be seen:
Discord refuses an answer after its 3 s (10062), so their search would be work nobody sees."""

from __future__ import annotations

import time
from typing import Any

import discord

WINDOW = 600.0  # seconds the fastest arrival stands as the clocks' offset


class Arrivals:
    """An interaction's id is a snowflake: when Discord created it, on Discord's clock. This
    machine's clock may be seconds off it, so lateness is counted from the fastest arrival of
    the last WINDOW seconds (the clocks' offset plus the network's delay), not from zero: a
    clock ahead never makes every request late, and a bot slow for a whole window skips less,
    not more."""

    def __init__(self, window: float = WINDOW) -> None:
        self.window = window
        self._fastest: float | None = None
        self._fastest_at = 0.0  # time.monotonic() when it was seen

    def lateness(self, interaction: discord.Interaction[Any]) -> float:
        """Seconds this interaction reached the bot later than the fastest one did."""
        now = time.monotonic()
        lag = (discord.utils.utcnow() - interaction.created_at).total_seconds()
        if self._fastest is None or lag <= self._fastest or now - self._fastest_at > self.window:
            self._fastest, self._fastest_at = lag, now
        return lag - self._fastest
