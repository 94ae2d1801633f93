"""A failure said once per reason (or once per streak, whatever its reasons): a streak of the
same failure is one log line, not one a try."""

from __future__ import annotations


class OncePerReason:
    """Why something fails, as last said. The caller logs when `is_new` (or `starts`, for one
    line a streak) says so, and may say it works again when `ended` is True."""

    __slots__ = ("reason",)

    def __init__(self) -> None:
        self.reason: str | None = None  # None: not failing

    def is_new(self, reason: str) -> bool:
        """It fails for `reason`: True unless that is the reason already said."""
        new = reason != self.reason
        self.reason = reason
        return new

    def starts(self) -> bool:
        """It fails, whatever the reason: True unless it was failing already."""
        if self.reason is not None:
            return False
        self.reason = ""  # failing, for no reason said
        return True

    def ended(self) -> bool:
        """It worked: True if it was failing until now."""
        was_failing = self.reason is not None
        self.reason = None
        return was_failing
