"""When Discord sent an interaction (its answer's deadline counts from then), and which
autocomplete requests nobody will see answered: one that reached the bot after Discord's
3 s (its answer is refused, 10062), or one the member typed on from (a newer request of theirs
has come). Their search would be work nobody sees."""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import Any

import discord

WINDOW = 600.0  # seconds the fastest arrival stands as the clocks' offset
MAX_TYPING = 10_000  # members whose newest autocomplete request is remembered
MAX_SENT = 1_000  # interactions whose arrival is remembered (asked by its check, limit, command)


class Arrivals:
    """An interaction's id is a snowflake: when Discord created it, on Discord's clock. This
    machine's monotonic clock (no step of the wall clock moves it) is any offset from that, so
    lateness is counted from the fastest arrivals of the last WINDOW seconds (the clocks' offset
    plus the network's delay), not from zero: a clock ahead never makes every request late, and
    a bot slow for a whole window skips less, not more. The second fastest, once there are two:
    one id stamped ahead of the rest (a clock of Discord's ahead, once) would otherwise make
    every later interaction look that much late for the whole window (an hour ahead: every
    answer posted instead, every autocomplete skipped)."""

    def __init__(self, window: float = WINDOW, max_typing: int = MAX_TYPING) -> None:
        self.window = window
        self._fastest: list[tuple[float, float]] = []  # the two fastest (lag, monotonic seen)
        self.max_typing = max_typing
        self._newest: OrderedDict[int, int] = OrderedDict()  # member -> newest request's id
        self._sent: OrderedDict[int, tuple[float, float]] = OrderedDict()  # id -> `_seen`

    def lateness(self, interaction: discord.Interaction[Any]) -> float:
        """Seconds this interaction reached the bot later than the fastest ones did (0 if not)."""
        return self._seen(interaction)[1]

    def sent_at(self, interaction: discord.Interaction[Any]) -> float:
        """time.monotonic() when Discord sent this interaction, as near as this machine can tell
        (the fastest arrivals taken as on time): where Discord's 3 s for its answer start."""
        return self._seen(interaction)[0]

    def arrived(self, interaction: discord.Interaction[Any]) -> float:
        """time.monotonic() when this interaction reached the bot (was first asked about):
        when a member's use counts against their limit. Never ahead of this machine's clock, as
        its id may be, nor moved back by lateness (two ids stamped ahead make the offset)."""
        sent_at, late = self._seen(interaction)
        return sent_at + late

    def _seen(self, interaction: discord.Interaction[Any]) -> tuple[float, float]:
        """(sent_at, lateness), worked out once an interaction, when first asked (its check
        as it is read): asked again (its limit, its command), the same answer, and its arrival
        is not counted again among the fastest. Counted twice, one command stamped ahead was
        both fastest and set the offset, making every later interaction that much late."""
        known = self._sent.get(interaction.id)
        if known is not None:
            return known
        now = time.monotonic()
        # Not the wall clock: a step forward (NTP correcting it, a VM resumed) made every
        # request look that much later than the fastest, until the window ended.
        lag = now - interaction.created_at.timestamp()
        fastest = [(f, at) for f, at in self._fastest if now - at <= self.window]
        # The first is on time; after it, the slower of the two fastest is the offset.
        offset = max(f for f, _ in fastest) if fastest else lag
        self._fastest = sorted([*fastest, (lag, now)])[:2]
        late = max(0.0, lag - offset)
        known = self._sent[interaction.id] = (now - late, late)
        if len(self._sent) > MAX_SENT:
            self._sent.popitem(last=False)
        return known

    def typed(self, interaction: discord.Interaction[Any]) -> None:
        """An autocomplete request was read from the gateway (before its turn to be answered)."""
        member = interaction.user.id
        self._newest[member] = max(interaction.id, self._newest.get(member, 0))
        self._newest.move_to_end(member)
        if len(self._newest) > self.max_typing:
            self._newest.popitem(last=False)

    def typed_on(self, interaction: discord.Interaction[Any]) -> bool:
        """A newer autocomplete request of this member's has been read: Discord shows its
        answer, not this one's."""
        return self._newest.get(interaction.user.id, 0) > interaction.id
