"""The term modals a bot has open (`/term add|edit`, accepting a suggestion): what each was opened
with, and the answer its first submit got, so a double click gets that answer again. A member's
`/suggest` form the database could not queue is kept here too (its term and words), for its
Edit again.

A draft is kept in memory (bounded) and in the store, so a submit after a restart (or in another
process on the same database) still carries the command's options, the term edited and its
revision, and the suggestion it accepts. A form is shown once its draft is stored, or after
SAVE_WAIT seconds at most (Discord wants the modal within 3 s; the write then finishes on its
own, and memory answers meanwhile). A store that cannot be written leaves the draft in memory
only (logged); answers to double clicks are per process. Reading a draft back from the store is
bounded (`read_timeout`): a database that hangs or fails raises `DraftUnread` (it may still
hold the draft); a form saved meanwhile keeps what was typed here (`keep_typed`), laid over its
draft once the store gives it back."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import uuid
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.glossary.server_terms import TermDraft
from bot.storage import StorageError

if TYPE_CHECKING:
    from bot.storage import Store

log = logging.getLogger(__name__)

MAX_DRAFTS = 1000  # modals opened and not yet forgotten, across servers (in memory)
# Why a draft is not given back while the bot waits for its database (`DATABASE_WAIT`): one
# opened before a restart is there, readable once it opens, so neither said gone nor guessed.
NOT_YET = "is not reachable yet (the bot has just started)"
SAVE_WAIT = 1.0  # seconds a form waits for its draft to be stored before it is shown anyway


class DraftUnread(Exception):
    """The store did not give a draft back: it did not answer within the read timeout, or it
    failed (PostgreSQL stopped, a locked file). Either way the draft may still be kept there,
    so it is not said gone. `why` completes "The database …"."""

    def __init__(self, nonce: str, why: str) -> None:
        super().__init__(nonce)
        self.why = why

    @property
    def said(self) -> str:
        """What every Edit again whose draft was not given back says."""
        return (
            f"The database {self.why}; your text is still kept: press **Edit again** in a moment."
        )


@dataclass(frozen=True)
class Draft:
    """A modal the bot opened: who for, what it writes, and what it was filled with."""

    owner: int
    scope: int
    typed: TermDraft
    editing: str | None = None  # the term's id
    revision: str | None = None  # the term's revision the edit was opened on
    suggestion: int | None = None  # the member's suggestion this term accepts
    # What its save answered, once it wrote: a form is saved once, and its refused answers'
    # Edit again (free: the command's use paid for the save) opens it no more.
    written: str | None = None

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self), ensure_ascii=False)

    @classmethod
    def from_json(cls, body: str) -> Draft | None:
        """None for a body this bot cannot read (a newer bot's, say): the form is then unknown."""
        try:
            fields = json.loads(body)
            return cls(**{**fields, "typed": TermDraft(**fields["typed"])})
        except (ValueError, TypeError, KeyError):
            return None


class Drafts:
    """Open modals by nonce, and the answer each one's first submit got (bounded)."""

    def __init__(
        self,
        store: Callable[[], Store | None],
        limit: int = MAX_DRAFTS,
        read_timeout: float = 1.0,  # BotState passes its own
        waiting: Callable[[], bool] = lambda: False,
    ) -> None:
        self._store = store
        self._waiting = waiting  # the store not open yet, but waited for: it will answer
        self.limit = limit
        self.read_timeout = read_timeout
        self._drafts: OrderedDict[str, Draft] = OrderedDict()
        self._answers: OrderedDict[str, asyncio.Future[str]] = OrderedDict()
        self._saving: set[asyncio.Future[None]] = set()  # writes that outlived SAVE_WAIT
        # Typed in a form whose draft the store could not give back (`keep_typed`), by nonce.
        self._typed: OrderedDict[str, tuple[int, int, dict[str, str], bool]] = OrderedDict()

    async def open(self, draft: Draft) -> str:
        """A new nonce for `draft`, kept in memory and (waiting SAVE_WAIT at most) in the store."""
        nonce = uuid.uuid4().hex[:12]
        await self.keep(nonce, draft)
        return nonce

    async def reopen(self, nonce: str, draft: Draft) -> None:
        """Keep `draft` under `nonce` again for its form, opened anew by Edit again: the
        submit it answered before is forgotten, so the next one saves (one still being saved
        is not: the next is its double click, given its answer)."""
        self.forget_answer(nonce)
        await self.keep(nonce, draft)

    def forget_answer(self, nonce: str) -> None:
        """Forget the answer form `nonce`'s submit got, so its next save (a reopened form's, a
        category picked) saves; one still being saved is kept: the next is its double click."""
        answered = self._answers.get(nonce)
        if answered is not None and answered.done():
            del self._answers[nonce]

    async def keep(self, nonce: str, draft: Draft) -> None:
        """Keep `draft` under `nonce` in memory and (waiting SAVE_WAIT at most: a locked
        database must not hold up the answer) in the store."""
        self._remember(nonce, draft)
        saving = asyncio.ensure_future(self.save(nonce, draft))
        self._saving.add(saving)
        saving.add_done_callback(self._saving.discard)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(saving), SAVE_WAIT)

    async def save(self, nonce: str, draft: Draft) -> None:
        store = self._store()
        if store is None:
            return
        try:
            await store.save_term_draft(nonce, draft.scope, draft.owner, draft.to_json())
        except StorageError as exc:
            log.warning("a form's draft is kept in memory only (lost on restart): %s", exc)

    def _remember(self, nonce: str, draft: Draft) -> None:
        self._drafts[nonce] = draft
        self._drafts.move_to_end(nonce)
        while len(self._drafts) > self.limit:
            self._drafts.popitem(last=False)

    async def get(self, nonce: str, scope: int, owner: int) -> Draft | None:
        """The draft of this server's modal `nonce`, opened for `owner`; None if not known.
        Raises DraftUnread when the store does not answer within `read_timeout`, or fails."""
        draft = self._drafts.get(nonce)
        if draft is not None:
            return draft if (draft.scope, draft.owner) == (scope, owner) else None
        store = self._store()
        if store is None and self._waiting():
            raise DraftUnread(nonce, NOT_YET)
        if store is None:
            return None
        try:
            body = await asyncio.wait_for(store.term_draft(nonce, scope, owner), self.read_timeout)
        except TimeoutError:
            raise DraftUnread(nonce, "did not answer in time") from None
        except StorageError:
            raise DraftUnread(nonce, "cannot be read right now") from None
        draft = Draft.from_json(body) if body is not None else None
        typed = self._typed.get(nonce)
        if typed is not None and typed[:2] != (scope, owner):  # not theirs: left for its owner
            typed = None
        if draft is None and typed is not None and not typed[3]:
            # An add form the store never held: as its save goes on, without the options.
            draft = Draft(owner, scope, TermDraft("", ""))
        if draft is not None and (draft.scope, draft.owner) == (scope, owner):
            if typed is not None:
                del self._typed[nonce]
                draft = dataclasses.replace(draft, typed=with_typed(draft.typed, typed[2]))
            self._remember(nonce, draft)
            return draft
        return None

    def keep_typed(
        self, nonce: str, scope: int, owner: int, values: Mapping[str, str], *, edit: bool
    ) -> None:
        """What was typed in form `nonce`, saved while the store could not give its draft back
        (`DraftUnread`): laid over that draft (its options, the term edited, the suggestion) when
        it is read, for the answer's Edit again; an add form (not `edit`) the store turns out
        not to hold is that text alone. Given back in the answer only, a definition at the
        form's cap was cut to one message."""
        self._typed[nonce] = (scope, owner, dict(values), edit)
        self._typed.move_to_end(nonce)
        while len(self._typed) > self.limit:
            self._typed.popitem(last=False)

    def answer(self, nonce: str) -> tuple[asyncio.Future[str], bool]:
        """The future answer of this modal's submit, and whether this submit is the first."""
        known = self._answers.get(nonce)
        if known is not None:
            return known, False
        future: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self._answers[nonce] = future
        while len(self._answers) > self.limit:
            self._answers.popitem(last=False)
        return future, True


def with_typed(typed: TermDraft, values: Mapping[str, str]) -> TermDraft:
    """`typed` (a draft's command options kept) with a submitted form's five fields."""
    return dataclasses.replace(
        typed,
        title=values.get("title", ""),
        definition=values.get("definition", ""),
        boundary=values.get("boundary", ""),
        other_names=values.get("other_names", ""),
        related=values.get("related", ""),
    )
