"""What a test holds after sending an interaction: its callbacks, follow-ups and final message.

Waiting is event-driven: every change in the fake notifies one ``asyncio.Condition``. The
fake's ``wait_timeout`` only turns a hang into a clear failure; for a tighter bound wrap the
call in ``asyncio.timeout(...)``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, TypeVar

from .messages import MessageStore
from .records import CallRecord
from .validation import LOADING

JSON = dict[str, Any]
T = TypeVar("T")


# Interaction callback types
PONG, CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE = 1, 4, 5
DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE, AUTOCOMPLETE_RESULT, MODAL = 6, 7, 8, 9


class InteractionRefused(Exception):
    """Discord would not have let the user invoke this command (permissions or context)."""


class Waiter:
    """One condition for the whole fake: notify after any change, wait for a predicate."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout  # a guard against hangs, not a way to synchronise
        self._condition = asyncio.Condition()

    async def notify(self) -> None:
        async with self._condition:
            self._condition.notify_all()

    async def wait_for(
        self,
        predicate: Callable[[], T | None],
        what: str,
        state: Callable[[], str] | None = None,
        *,
        within: float | None = None,
    ) -> T:
        """Wait until ``predicate()`` is truthy and return it; ``state`` explains a timeout.
        ``within`` replaces the fake's own timeout for waits known to be longer (a process
        starting on a loaded machine)."""
        limit = self.timeout if within is None else within
        try:
            async with asyncio.timeout(limit), self._condition:
                result = await self._condition.wait_for(predicate)
        except TimeoutError:
            detail = f"; {state()}" if state is not None else ""
            raise TimeoutError(f"fake Discord: no {what} within {limit}s{detail}") from None
        assert result is not None
        return result


class InteractionHandle:
    """One interaction the fake sent to the bot, and everything the bot did with it."""

    def __init__(
        self,
        *,
        payload: JSON,
        waiter: Waiter,
        store: MessageStore,
        refusal: str | None = None,
        target_message_id: int | None = None,
    ) -> None:
        self.payload = payload
        self.id = int(payload["id"])
        self.token: str = payload["token"]
        self.type: int = payload["type"]
        self.refusal = refusal
        self.sent_at: float | None = None  # time.monotonic() when delivered over the gateway
        # time.monotonic() when Discord sent it, where its 3 s start: earlier than `sent_at`
        # for one held up on the way to the bot.
        self.discord_sent_at: float | None = None
        self.records: list[CallRecord] = []
        self.callback: JSON | None = None  # the first accepted initial response
        self.first_attempt: JSON | None = None  # the first initial response sent, even if refused
        # The message @original names: the response's own message, or for a component
        # interaction answered with 6/7 the message the component is on.
        self.original_message_id: int | None = None
        self.followup_ids: list[int] = []
        self.target_message_id = target_message_id
        self._target_edits_at_start = store.edit_count(target_message_id or 0)
        self._waiter = waiter
        self._store = store

    @property
    def refused(self) -> bool:
        return self.refusal is not None

    @property
    def acknowledged(self) -> bool:
        return self.callback is not None

    @property
    def response_latency(self) -> float | None:
        """Seconds from delivery to the first accepted initial response."""
        for record in self.records:
            if record.kind == "callback" and record.status < 300:
                return record.elapsed
        return None

    def elapsed(self) -> float:
        return 0.0 if self.sent_at is None else time.monotonic() - self.sent_at

    # --- waiting ---------------------------------------------------------------------------

    async def wait_for(self, predicate: Callable[[InteractionHandle], T | None]) -> T:
        """Wait until ``predicate(handle)`` is truthy; returns its value."""
        self._raise_if_refused()
        return await self._waiter.wait_for(lambda: predicate(self), "matching state", self._state)

    async def response(self) -> JSON:
        """The first initial response body the bot sent (``{"type": ..., "data": ...}``)."""
        self._raise_if_refused()
        return await self._waiter.wait_for(
            lambda: self.first_attempt, f"initial response to interaction {self.id}", self._state
        )

    async def choices(self) -> list[JSON]:
        """The autocomplete choices of a type 8 response."""
        body = await self.response()
        if body.get("type") != AUTOCOMPLETE_RESULT:
            raise AssertionError(f"expected an autocomplete result, got {body}")
        return list(body.get("data", {}).get("choices", []))

    async def followups(self, count: int = 1) -> list[JSON]:
        """Follow-up messages (current state), once at least ``count`` exist."""
        self._raise_if_refused()

        def ready() -> list[JSON] | None:
            if len(self.followup_ids) < count:
                return None
            return [self._store.snapshot(i) for i in self.followup_ids]

        return await self._waiter.wait_for(ready, f"{count} follow-up(s)", self._state)

    async def final_message(self) -> JSON:
        """The message the user ends up seeing for this interaction.

        4 / 7: the message as sent or updated (plus any later edits so far).
        5: waits until the "thinking" message is replaced (edit of @original or first follow-up;
        if the bot deleted it, its first follow-up).
        6: waits until the component's message is edited.
        """
        self._raise_if_refused()
        return await self._waiter.wait_for(self._settled_message, "final message", self._state)

    def _settled_message(self) -> JSON | None:
        body = self.callback
        if body is None:
            return None
        kind = body.get("type")
        if kind in (AUTOCOMPLETE_RESULT, MODAL, PONG):
            raise AssertionError(f"callback type {kind} has no message")
        message_id = self.original_message_id
        if message_id is None:
            return None
        message = self._store.get(message_id)
        if message is None:
            return None
        if kind == DEFERRED_CHANNEL_MESSAGE and message_id in self._store.deleted:
            # The bot deleted the "thinking" message; what the user sees is its first follow-up.
            return self._store.snapshot(self.followup_ids[0]) if self.followup_ids else None
        if kind == DEFERRED_CHANNEL_MESSAGE and int(message.get("flags") or 0) & LOADING:
            return None
        if kind == DEFERRED_UPDATE_MESSAGE and (
            self._store.edit_count(message_id) <= self._target_edits_at_start
        ):
            return None
        return self._store.snapshot(message_id)

    def _state(self) -> str:
        delivered = "not delivered yet" if self.sent_at is None else "delivered"
        calls = ", ".join(f"{r.kind} -> {r.status}{_code(r.response)}" for r in self.records)
        return f"interaction {self.id} {delivered}; the bot's calls so far: {calls or 'none'}"

    def _raise_if_refused(self) -> None:
        if self.refusal is not None:
            raise InteractionRefused(self.refusal)

    def __repr__(self) -> str:
        return f"<InteractionHandle id={self.id} type={self.type} records={len(self.records)}>"


def _code(response: object) -> str:
    if isinstance(response, dict) and "code" in response:
        return f" (code {response['code']})"
    return ""
