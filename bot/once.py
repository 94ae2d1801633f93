"""A failure said once per reason: a streak of the same failure is one log line, not one a try."""

from __future__ import annotations


class OncePerReason:
    """Why something fails, as last said. The caller logs when `is_new` says so, and may say
    it works again when `ended` is True."""

    __slots__ = ("reason",)

    def __init__(self) -> None:
        self.reason: str | None = None  # None: not failing

    def is_new(self, reason: str) -> bool:
        """It fails for `reason`: True unless that is the reason already said."""
        new = reason != self.reason
        self.reason = reason
        return new

    def ended(self) -> bool:
        """It worked: True if it was failing until now."""
        was_failing = self.reason is not None
        self.reason = None
        return was_failing
