"""`find_mentions` as main had it at a8a39543 (before mentions64), the plain reading kept as the
oracle the faster one must agree with (test_mentions64): at each word it widens name by name,
joining the words afresh and counting the capitals of the whole surface at every width. Only
the parts mentions64 changed are copied (verbatim); the rest is imported, so the rules the two
share cannot drift apart here."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

from bot.glossary.keys import compact
from bot.glossary.models import Entry
from bot.search.names import Hit, NameTable
from bot.search.query import derived_forms, plural_variants
from bot.search.server_aliases import ServerAliases
from bot.search.terms import (
    _FUNCTION_WORDS,
    _HAN_OR_KANA,
    _SPACELESS_CHAR,
    _WORD,
    GENERIC_WORDS,
    MAX_WORDS,
    Found,
    _excluded,
    _has_prefix,
    _script,
    _starts_joined_words,
)


def find_mentions(
    text: str,
    names: NameTable,
    entries: tuple[Entry, ...],
    server: ServerAliases,
    context: str | None,
    *,
    as_typed: bool = True,
    max_words: int = MAX_WORDS,
) -> list[Found]:
    words = [(m.group(), m.start(), m.end()) for m in _WORD.finditer(text)]
    folded = [compact(w) for w, _, _ in words]
    glued = [a[2] == b[1] for a, b in pairwise(words)]
    allowed: Callable[[int], bool] = lambda e: not _excluded(entries[e], context)  # noqa: E731
    found: list[Found] = []
    seen: set[int] = set()
    starts: list[Found] = []  # forms of words that only start a name (below)
    named = False  # a name read as written
    at = 0
    while at < len(words):
        first = folded[at]
        if (
            first not in server.first_words
            and not names.starts_a_name(first)
            and not _starts_joined_words(first, names)
            and not (_SPACELESS_CHAR.match(first) and _has_prefix(first, names, server))
        ):
            derived = None if as_typed else _derived_entry(first, names, allowed)
            if derived is not None and derived not in seen:
                seen.add(derived)
                found.append(Found(derived, words[at][1], words[at][2]))
            at += 1
            continue
        best: tuple[int, int] | None = None
        for width in range(1, min(max_words, len(words) - at) + 1):
            parts = _joined_where_glued(folded[at : at + width], glued[at : at + width - 1])
            surface = text[words[at][1] : words[at + width - 1][2]]
            if not as_typed:
                surface = surface.upper()
            entry = _entry_for(parts, surface, names, server.found_by, allowed)
            if entry is None and len(parts) > 1 and not as_typed:
                entry = _derived_entry("".join(parts), names, allowed)
            if entry is not None and _bounded(text, words[at][1], words[at + width - 1][2]):
                best = (entry, width)
            joined = "".join(parts)
            if not _has_prefix(joined, names, server):
                break
        if best is None:
            # a word that only starts a longer name not written here names the noun it is a
            # form of, as any other form does ("people say they quantize a model": Quantization,
            # not the start of "quantized low-rank adaptation"; "distill" of "distillation ..."),
            # where the text writes no name as it is (below)
            if not as_typed:
                derived = _derived_entry(first, names, allowed)
                if derived is not None:
                    starts.append(Found(derived, words[at][1], words[at][2]))
            at += 1
            continue
        entry, width = best
        if entry not in seen:
            seen.add(entry)
            found.append(Found(entry, words[at][1], words[at + width - 1][2]))
            named = True
        at += width
    if starts and not named:  # beside a name written as it is, such a form may qualify it
        for form in starts:  # ("the perplexity of a quantized model")
            if form.entry not in seen:
                seen.add(form.entry)
                found.append(form)
        found.sort(key=lambda f: f.start)
    return found


def _bounded(text: str, start: int, end: int) -> bool:
    first, last = text[start], text[end - 1]
    open_left = start > 0 and _script(text[start - 1]) == _script(first) is not None
    open_right = end < len(text) and _script(text[end]) == _script(last) is not None
    if end - start == 2 and _HAN_OR_KANA.fullmatch(text, start, end):
        open_left = open_left and not text[:start].endswith(_FUNCTION_WORDS)
        open_right = open_right and not text[end:].startswith(_FUNCTION_WORDS)
        return not (open_left or open_right)
    katakana = _script(first) == 2, _script(last) == 2
    return not (katakana[0] and open_left) and not (katakana[1] and open_right)


def _joined_where_glued(parts: list[str], glued: list[bool]) -> list[str]:
    joined = parts[:1]
    for part, runs_on in zip(parts[1:], glued, strict=True):
        if runs_on:
            joined[-1] += part
        else:
            joined.append(part)
    return joined


def _derived_entry(word: str, names: NameTable, allowed: Callable[[int], bool]) -> int | None:
    for form in derived_forms(word):
        hits = [h for h in names.lookup(form) if not h.cased and allowed(h.entry)]
        if hits and form not in GENERIC_WORDS:
            return hits[0].entry if len({h.entry for h in hits}) == 1 else None
    return None


def _entry_for(
    parts: list[str],
    surface: str,
    names: NameTable,
    server: dict[str, int],
    allowed: Callable[[int], bool],
) -> int | None:
    key = "".join(parts)
    variants = plural_variants(key)
    too_short = len(key) < 2 or (len(key) == 2 and not _HAN_OR_KANA.fullmatch(key))
    if len(parts) == 1 and (too_short or not GENERIC_WORDS.isdisjoint((key, *variants))):
        return None
    if key in server and allowed(server[key]):
        return server[key]
    shouted = sum(c.isupper() for c in surface) >= 2
    for candidate in (key, *variants):
        hits = sorted(names.lookup(candidate), key=lambda h: not h.cased) if shouted else None
        for hit in hits or names.lookup(candidate):
            if _links(hit, parts, candidate, surface, names) and allowed(hit.entry):
                return hit.entry
    return None


def _links(hit: Hit, parts: list[str], key: str, surface: str, names: NameTable) -> bool:
    if hit.cased and sum(c.isupper() for c in surface) < 2:
        return False
    if len(parts) > 1:
        spaced = names.spaced(key)
        if spaced is None:
            return False
        words = spaced.replace("'", "").split()
        same_words = len(words) == len(parts) and words[:-1] == parts[:-1]
        return (
            same_words
            or (len(words) == 1 and min(map(len, parts)) >= 3)
            or _joins_words(parts, words)
        )
    return True


def _joins_words(parts: list[str], words: list[str]) -> bool:
    if len(parts) >= len(words):
        return False
    ends = {sum(map(len, words[: i + 1])) for i in range(len(words))}
    return all(sum(map(len, parts[: i + 1])) in ends for i in range(len(parts) - 1))
