"""Sharding as Discord does it: which shard a guild lives on, ``/gateway/bot``'s numbers, and
the IDENTIFY rate limit.

- A guild's events go to shard ``(guild_id >> 22) % shard_count``; DMs to shard 0.
- ``GET /gateway/bot`` answers ``shards`` and ``session_start_limit`` from ``Sharding``; each
  accepted IDENTIFY spends one of ``remaining`` (Discord resets the token when none are left:
  the fake then closes the connection with 4004 and records a violation).
- IDENTIFY is rate limited per bucket ``shard_id % max_concurrency``: one per
  ``identify_window`` seconds (5 s on Discord). Every IDENTIFY is kept in ``identifies`` with
  its time and bucket; ``too_close()`` lists pairs within the window. With ``enforce`` set the
  gateway answers such an IDENTIFY as Discord does, with op 9 INVALID_SESSION (``d: false``),
  and records a violation. Enforcement is off by default because a test that restarts a bot
  re-identifies at once; the record is always kept. ``clock`` (``time.monotonic``) may be
  replaced so a test need not wait real seconds.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .models import new_snowflake

JSON = dict[str, Any]


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard that receives a guild's events (DMs: shard 0)."""
    if guild_id is None:
        return 0
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True)
class IdentifyRecord:
    """One IDENTIFY the gateway received (accepted or not)."""

    shard_id: int
    shard_count: int
    bucket: int  # shard_id % max_concurrency
    at: float  # Sharding.clock() on arrival
    outcome: str  # "ready" | "rate_limited" | "invalid_shard" | "already_identified" | ...


@dataclass
class Sharding:
    """What the fake tells the bot about sharding, and how it holds it to it."""

    shard_count: int = 1
    max_concurrency: int = 1
    total: int = 1000
    remaining: int = 1000
    reset_after_ms: int = 14_400_000
    identify_window: float = 5.0
    enforce: bool = False
    clock: Callable[[], float] = time.monotonic
    identifies: list[IdentifyRecord] = field(default_factory=list)

    def gateway_bot(self, url: str) -> JSON:
        """The body of ``GET /gateway/bot``."""
        limit = {
            "total": self.total,
            "remaining": self.remaining,
            "reset_after": self.reset_after_ms,
            "max_concurrency": self.max_concurrency,
        }
        return {"url": url, "shards": self.shard_count, "session_start_limit": limit}

    def bucket(self, shard_id: int) -> int:
        return shard_id % self.max_concurrency

    def too_soon(self, shard_id: int, now: float) -> bool:
        """Whether an IDENTIFY now would follow an accepted one in its bucket within the window."""
        bucket = self.bucket(shard_id)
        return any(
            r.bucket == bucket and r.outcome == "ready" and now - r.at < self.identify_window
            for r in self.identifies
        )

    def record(self, shard_id: int, shard_count: int, at: float, outcome: str) -> None:
        self.identifies.append(
            IdentifyRecord(shard_id, shard_count, self.bucket(shard_id), at, outcome)
        )

    def times_by_bucket(self) -> dict[int, list[float]]:
        """Accepted IDENTIFY times per bucket, in order."""
        found: dict[int, list[float]] = {}
        for r in self.identifies:
            if r.outcome == "ready":
                found.setdefault(r.bucket, []).append(r.at)
        return found

    def too_close(self) -> list[tuple[IdentifyRecord, IdentifyRecord]]:
        """Pairs of IDENTIFYs (any outcome) in one bucket less than ``identify_window`` apart."""
        pairs = []
        by_bucket: dict[int, list[IdentifyRecord]] = {}
        for r in self.identifies:
            if r.outcome in ("ready", "rate_limited"):
                by_bucket.setdefault(r.bucket, []).append(r)
        for records in by_bucket.values():
            records.sort(key=lambda r: r.at)
            pairs += [
                (a, b) for a, b in itertools.pairwise(records) if b.at - a.at < self.identify_window
            ]
        return pairs


def snowflake_on_shard(shard_id: int, shard_count: int) -> int:
    """A fresh, unique snowflake whose guild would live on ``shard_id``.

    The shard depends on the timestamp bits only, so this steps the timestamp back (at most
    ``shard_count - 1`` ms) until it lands on the shard; the low bits keep it unique.
    """
    if not 0 <= shard_id < shard_count:
        raise ValueError(f"shard {shard_id} is not one of {shard_count} shards")
    fresh = new_snowflake()
    ms = fresh >> 22
    ms -= (ms - shard_id) % shard_count
    return (ms << 22) | (fresh & 0x3FFFFF)
