"""What discord.py cannot read of what Discord sends, mended where discord.py reads it.

Imported by `app` before any message is parsed; each mend says why and is kept as narrow as the
fault.
"""

from __future__ import annotations

from typing import Any

from discord.poll import Poll

_poll_from_data = Poll._from_data.__func__  # type: ignore[attr-defined]


def _poll_that_may_never_end(cls: type[Poll], *, data: Any, message: Any, state: Any) -> Poll:
    """A poll's `expiry` is null for a poll that never ends (Discord's docs: nullable "to support
    non-expiring polls in the future"). discord.py works the poll's duration out of it and
    raises a TypeError, in the gateway's reader (which drops the connection) or before a
    command sees its message. Such a poll is read as ending when it was posted (a duration of
    0), then given back its missing expiry."""
    if data.get("expiry") is not None:
        return _poll_from_data(cls, data=data, message=message, state=state)  # type: ignore[no-any-return]
    timed = {**data, "expiry": message.created_at.isoformat()}
    poll: Poll = _poll_from_data(cls, data=timed, message=message, state=state)
    poll._expiry = None
    return poll


Poll._from_data = classmethod(_poll_that_may_never_end)  # type: ignore[assignment, method-assign]
