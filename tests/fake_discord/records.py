"""What the fake remembers for tests to assert on: violations, REST calls and sent messages."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]


@dataclass(frozen=True)
class Violation:
    """Something real Discord would have refused or that the bot must never do.

    ``kind`` is one of: ``invalid_form_body`` (400 50035, including a callback type that does
    not fit the interaction), ``empty_message``, ``already_acknowledged`` (40060),
    ``unknown_interaction`` (10062: late or never sent), ``unknown_webhook`` (follow-up before
    the ack, or after the token expired), ``unknown_message``, ``missing_permissions``,
    ``ping`` (a message that would notify someone), ``unknown_route``, ``gateway``.
    """

    kind: str
    route: str
    detail: str
    body: Any = None

    def __str__(self) -> str:
        return f"[{self.kind}] {self.route}: {self.detail}"


@dataclass(frozen=True)
class CallRecord:
    """One REST call made for an interaction (callback, follow-up, edit, ...).

    ``at`` is ``time.monotonic()`` on arrival; ``elapsed`` is seconds since the fake delivered
    the interaction to the bot, so ``record.elapsed < 3`` is the latency a user would feel.
    """

    kind: str  # callback | followup | get_original | edit_original | delete_original | ...
    method: str
    path: str
    at: float
    elapsed: float
    status: int
    body: Any
    response: Any


@dataclass
class SentMessage:
    """A message the bot created or edited, with the mention policy it sent."""

    kind: str  # channel_message | interaction_response | followup | edit
    route: str
    message: JSON
    body: JSON
    at: float
    pings: list[str] = field(default_factory=list)

    @property
    def allowed_mentions(self) -> Any:
        return self.body.get("allowed_mentions")
