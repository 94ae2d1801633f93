"""Stand-ins for the discord.py client, for tests that drive one part of the bot alone (the
heartbeat keeper) without a gateway."""

from __future__ import annotations


class ConnectedClient:
    """A client connected for good, as `health.keep_heartbeat` reads one: it beats until it is
    stopped."""

    latency = 0.05

    def is_closed(self) -> bool:
        return False

    def is_ready(self) -> bool:
        return True

    async def wait_until_ready(self) -> None:
        return None
