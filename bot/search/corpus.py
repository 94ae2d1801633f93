"""What the index reads from entries besides their names."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.glossary.models import Entry

DEFAULT_CHOICES = 25
ASKED_AS_WEIGHT = 2.0  # as keywords; set on the dev slice (0.5-2: 75-81% description cards)


def text_fields(entries: Sequence[Entry]) -> list[tuple[list[str], float]]:
    """The full-text fields, one text per entry each, with their weights: names and keywords
    weigh more than running text; every source's wording counts (once)."""
    names = [" ".join((*e.names, *e.match_terms)) for e in entries]
    keywords = [" ".join(e.keywords) for e in entries]
    texts = [_running_text(e) for e in entries]
    asked_as = [" ".join(e.asked_as) for e in entries]  # people's own words for it
    return [(names, 3.0), (keywords, 2.0), (texts, 1.0), (asked_as, ASKED_AS_WEIGHT)]


def _running_text(entry: Entry) -> str:
    """Summary, definition and plain words of the entry and of every source, each once (the
    boundary is left out: it says what the term is not)."""
    if not (entry.summary or entry.plain) and len(entry.sources) == 1:
        return entry.definition  # the common case at scale
    texts = [entry.summary, entry.definition, entry.plain]
    for source in entry.sources:
        texts += (source.summary, source.definition, source.plain)
    return " ".join(dict.fromkeys(t for t in texts if t))


def default_order(entries: Sequence[Entry], positions: Mapping[str, int]) -> list[int]:
    """For an empty autocomplete box: the entries most others point to (the core concepts),
    in glossary order on a tie."""
    links = [0] * len(entries)
    for entry in entries:
        for related in entry.related:
            if related in positions:
                links[positions[related]] += 1
    return sorted(range(len(entries)), key=lambda position: -links[position])[:DEFAULT_CHOICES]
