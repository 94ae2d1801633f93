"""Time helpers: the store keeps Unix seconds and hourly buckets, callers see aware datetimes."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Literal

Period = Literal["day", "week", "month", "all"]
PERIODS: tuple[Period, ...] = ("day", "week", "month", "all")
Clock = Callable[[], datetime]

# Rolling windows rather than calendar ones: a server's time zone is unknown to the bot.
_WINDOWS: dict[str, timedelta] = {
    "day": timedelta(days=1),
    "week": timedelta(days=7),
    "month": timedelta(days=30),
}

# Each period as its title says it, `/stats` and `glossary-bot stats` (text and chart) alike:
# rolling windows said as such ("today" over a chart from yesterday's 20:00 read as a calendar
# day; "the last month" as the calendar's, outsider76).
PERIOD_LABELS: dict[str, str] = {
    "day": "the last 24 hours",
    "week": "the last 7 days",
    "month": "the last 30 days",
    "all": "all time",
}

HOUR = 3600


def utc_now() -> datetime:
    return datetime.now(UTC)


def period_start(period: Period, now: datetime) -> datetime | None:
    """The start of the rolling window ending at `now`; None for all time."""
    if period == "all":
        return None
    try:
        return now - _WINDOWS[period]
    except KeyError:
        raise ValueError(f"unknown period {period!r}; expected one of {PERIODS}") from None


def to_unix(moment: datetime) -> int:
    return int(moment.timestamp())


def from_unix(seconds: int) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def hour_of(seconds: int) -> int:
    """The hourly bucket (hours since the epoch) holding a Unix time."""
    return seconds // HOUR


def since_hour(since: datetime | None) -> int | None:
    """First bucket a period covers. The bucket holding `since` counts whole (hour granularity)."""
    return None if since is None else hour_of(to_unix(since))
