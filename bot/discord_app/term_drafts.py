"""The term modals a bot has open (`/term add|edit`): what each was filled with, and the answer
its first submit got, so a double click gets that answer again. In memory and bounded."""

from __future__ import annotations

import asyncio
import uuid
from collections import OrderedDict
from dataclasses import dataclass

from bot.glossary.server_terms import TermDraft

MAX_DRAFTS = 1000  # modals opened and not yet forgotten, across servers


@dataclass(frozen=True)
class Draft:
    """A modal the bot opened: who for, what it writes, and what it was filled with."""

    owner: int
    scope: int
    typed: TermDraft
    editing: str | None = None  # the term's id
    revision: str | None = None  # the term's revision the edit was opened on
    suggestion: int | None = None  # the member's suggestion this term accepts


class Drafts:
    """Open modals by nonce, and the answer each one's first submit got (bounded)."""

    def __init__(self, limit: int = MAX_DRAFTS) -> None:
        self.limit = limit
        self._drafts: OrderedDict[str, Draft] = OrderedDict()
        self._answers: OrderedDict[str, asyncio.Future[str]] = OrderedDict()

    def open(self, draft: Draft) -> str:
        nonce = uuid.uuid4().hex[:12]
        self.keep(nonce, draft)
        return nonce

    def keep(self, nonce: str, draft: Draft) -> None:
        self._drafts[nonce] = draft
        self._drafts.move_to_end(nonce)
        while len(self._drafts) > self.limit:
            self._drafts.popitem(last=False)

    def get(self, nonce: str) -> Draft | None:
        return self._drafts.get(nonce)

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
