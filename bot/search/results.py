"""What a search answers: plain frozen values, safe to hand to any renderer."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Literal

from bot.glossary.models import Entry
from bot.search.calibration import Fused

Status = Literal["match", "suggest", "none"]
# How a hit was found, in the order a dictionary server (RFC 2229) would try: the label is shown
# to users ("matched as a typo"), so a weak strategy is never passed off as an exact one.
Strategy = Literal[
    "exact",
    "id",
    "server-alias",
    "alias",
    "acronym",
    "expansion",
    "match-term",
    "plural",
    "prefix",
    "fuzzy",
    "description",
    "semantic",
]


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A "did you mean" candidate."""

    id: str
    title: str
    score: float
    strategy: Strategy


@dataclass(frozen=True, slots=True)
class SearchResult:
    """One query's answer: a confident `match`, `suggest`ions only, or `none`."""

    status: Status
    entry: Entry | None  # set only for a match
    strategy: Strategy | None
    score: float  # 0-100, the best candidate's
    query: str
    normalized_query: str
    suggestions: tuple[Suggestion, ...] = ()  # best first, at most 5, never the matched entry
    # the field's words in another language were read as English (`foreign.english_terms`)
    translated: bool = False
    # "X vs Y", "convert X to Y": the other side's entry id, the card's first offer
    other_side: str | None = None
    # the card's name (or an alias) is written whole in the text, though the description, the
    # meaning or a related form decided it ("..., what is gradient clipping?"): how it was found
    name_written: bool = False
    # the words of a longer text that named the card: this server's alias as stored ("what is
    # zorbrag?": "zorbrag"), the card's name written in it (`name_written`); the footer quotes them
    matched: str | None = None
    # what the meaning and the words were when fused (none where no meaning ran): the signals
    # `calibration` weighs an offer by
    fused: Fused | None = None

    @classmethod
    def opened(cls, entry: Entry) -> SearchResult:
        """An entry opened by id (a button, a menu): found without searching."""
        return cls("match", entry, "id", 100.0, entry.id, entry.id)

    @property
    def asked_nothing(self) -> bool:
        """Nothing to look up: only punctuation was read ("#", "@", "?"). "#" and "@" stay in
        the read text for names like C#, so an empty text alone does not say it; an emoji is
        something asked (an honest "No entry")."""
        return all(unicodedata.category(ch)[0] in "PZ" for ch in self.normalized_query)

    @property
    def entry_id(self) -> str | None:
        """The matched entry's id: the card this answer opens; None where it opens none."""
        return self.entry.id if self.entry is not None else None

    @property
    def best_id(self) -> str | None:
        """The matched entry's id, else the first suggestion's: what a user would click first."""
        if self.entry is not None:
            return self.entry.id
        if self.status == "none" or not self.suggestions:
            return None
        return self.suggestions[0].id


@dataclass(frozen=True, slots=True)
class Choice:
    """An autocomplete choice as Discord takes it: name shown (1-100 chars), value = entry id."""

    name: str
    value: str


@dataclass(frozen=True, slots=True)
class TermMention:
    """A glossary term found in running text: `text[start:end]` is what was written."""

    entry: Entry
    surface: str
    start: int
    end: int

    @property
    def entry_id(self) -> str:
        return self.entry.id
