"""Glossary terms mentioned in running text, for the "Explain terms" message command.

The text is split into word tokens with their offsets; at each token the longest run of up to
`max_words` tokens that spells a name (joined without spaces, so "kv cache", "KV-cache" and
"kvcache" all meet the key "kvcache") wins. Precision beats recall here: a message full of links
on everyday words is noise, so words like "context" or "step", anything of one or two letters,
and acronyms written in lower case ("a rag", "zero", "rope") are not linked; two Han or kana
characters are a word, linked where the script around them changes or a Chinese function word
stands beside them (`_bounded`). The "Explain
terms" command asks for every term a chosen message names, and finds acronyms in any case
(`as_typed=False`).
"""

from __future__ import annotations

import bisect
import itertools
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass

from bot.glossary.keys import compact
from bot.glossary.letters import COMBINING_MARKS, SPACELESS_SCRIPTS
from bot.glossary.models import Entry
from bot.search.names import Hit, NameTable
from bot.search.query import derived_forms, plural_variants
from bot.search.server_aliases import ServerAliases

MAX_WORDS = 6  # inside a search query: the longest name search looks for there
# In a message to explain, as many words as a name can hold (a server term's title is up to 256
# characters): widening stops at the first word no name goes on with, so it costs nothing more
# on ordinary text.
ALL_WORDS = 128
_JOINED_LENGTH = 6  # letters: words run together ("multihead") are long; "in", "the" are not
# In a script written without spaces between words each character is a word of its own, so a
# name is found inside a run ("とRAGを", "佐布拉克斯系统"); and a word in Latin letters (with
# digits) ends where another script begins ("RAG를": Korean's particle follows unspaced).
_LATIN = (
    "0-9A-Za-z\u00aa\u00b5\u00ba\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff"
    "\uff10-\uff19\uff21-\uff3a\uff41-\uff5a"  # and their full-width forms
)
# A letter's marks (Devanagari's vowel signs, a decomposed accent) are not word characters to
# `\w`, but they belong to the word of the letter before them ("मॉडल", not "म" and "डल").
_OTHER_LETTER = rf"[^\W_{_LATIN}{SPACELESS_SCRIPTS}]"
_LETTERS = (
    rf"(?:[{_LATIN}][{_LATIN}{COMBINING_MARKS}]*"
    rf"|{_OTHER_LETTER}(?:{_OTHER_LETTER}|[{COMBINING_MARKS}])*)"
)
_WORD = re.compile(  # "Goodhart's", "C++", "C#"
    rf"[{SPACELESS_SCRIPTS}]|{_LETTERS}(?:['’]{_LETTERS})*(?:\+\+|#)?"
)
_SPACELESS_CHAR = re.compile(rf"[{SPACELESS_SCRIPTS}]")
# Without a word splitter, where a word of Japanese or Chinese ends is seen only where the script
# changes (kanji to a kana particle, katakana to kanji or Latin), at punctuation or a space. A
# katakana loanword is its whole katakana run ("ゲート" is not in "ゲートウェイ", "ラマ" not in
# "パノラマ"), and a two-character name in Han or kana is too short to be trusted inside a run
# ("蒸馏" in "蒸馏水"), so each is linked only where it stands so bounded. A longer Han name (a
# Chinese sentence changes script nowhere) or a Thai one is still found inside its run.
_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_HIRAGANA = "\u3040-\u309f"
_KATAKANA = "\u30a0-\u30ff\uff66-\uff9f"
_SCRIPT_OF = tuple(re.compile(f"[{chars}]") for chars in (_HAN, _HIRAGANA, _KATAKANA))
_HAN_OR_KANA = re.compile(f"[{_HAN}{_HIRAGANA}{_KATAKANA}]+")
# Chinese writes its function words in Han too: one next to a two-character Han name ends the
# name's word as a change of script would ("什么是蒸馏？", "蒸馏的原理"), while a content character
# does not ("蒸馏水", distilled water). Simplified and traditional forms.
_FUNCTION_WORDS_TEXT = """
    是 的 了 在 和 与 與 吗 嗎 呢 吧 用 把 被 从 從 对 對 给 給 跟 或 及 让 讓
    什么 什麼 怎么 怎麼 为什么 為什麼 如何 哪些
"""
_FUNCTION_WORDS = tuple(_FUNCTION_WORDS_TEXT.split())

# Everyday words that are also titles or match terms; linking them in every message is noise.
_GENERIC_WORDS_TEXT = """
    batch context data dataset gate gating layer loss model parameter sample sampling seed step
    training train weight memory caption safety decode liveness
"""
GENERIC_WORDS = frozenset(_GENERIC_WORDS_TEXT.split())
# How far the keys looked up for a key may differ from it (test_mentions64 holds this): a form
# `derived_forms` makes of a word (an ending of up to five dropped, up to three more, then up
# to "ation" added) or another number of it ("caches": "cache", "query": "queries") keeps all
# but its last `_FORM_DROPS` letters and is at most `_FORM_ADDS` letters longer. Where no name
# is so, none of them is looked up.
_FORM_DROPS = 8
_FORM_ADDS = 5
# Read a word that only starts a longer name, not written, as the form of a noun it may be
# ("quantized", "distill"): task verbs77 (its what-if switches it off)
NAME_STARTS_AS_FORMS = True
_REMEMBERED = 4096  # words one reading keeps the entry of (`read_before`): a bound on memory


@dataclass(frozen=True, slots=True)
class Found:
    entry: int
    start: int
    end: int


def _excluded(entry: Entry, context: str | None) -> bool:
    """True when `context` names a place the entry's match terms must not be linked (notIn)."""
    if not context:
        return False
    for place in entry.match_exclusions:
        prefix = place if place.endswith(".") else place + "."
        if context == place or context.startswith(prefix):
            return True
    return False


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
    """Mentions in order of appearance, one per entry (its first), of names of at most
    `max_words` words. With `as_typed` False (a search box, where people type "rag" for RAG)
    acronyms match in any case."""
    words = [(m.group(), m.start(), m.end()) for m in _WORD.finditer(text)]
    folded = [compact(w) for w, _, _ in words]
    # A word that runs on into the next with nothing between (a script change, a character of
    # a script without spaces) is one word with it when a name is read.
    glued = [a[2] == b[1] for a, b in itertools.pairwise(words)]
    allowed: Callable[[int], bool] = lambda e: not _excluded(entries[e], context)  # noqa: E731
    found: list[Found] = []
    seen: set[int] = set()
    starts: list[Found] = []  # forms of words that only start a name (below)
    named = False  # a name read as written
    # The entry words name (with capitals or not) where names are near: a name written over
    # and over is read in the same words from each place it is written.
    read_before: dict[tuple[tuple[str, ...], bool], int | None] = {}
    at = 0
    while at < len(words):
        first = folded[at]
        # most words start no name; "multihead" starts one written with its hyphen dropped
        if (
            first not in server.first_words
            and not names.starts_a_name(first)
            and not _starts_joined_words(first, names)
            and not (_SPACELESS_CHAR.match(first) and _has_prefix(first, names, server))
        ):
            derived = None if as_typed else _derived_entry(first, names, allowed)
            if derived is not None and derived not in seen:  # "quantized" names quantization
                seen.add(derived)
                found.append(Found(derived, words[at][1], words[at][2]))
            at += 1
            continue
        best: tuple[int, int] | None = None  # (entry, width) of the longest name here
        # Widening by a word extends what the last width read, not read afresh, and looks names
        # up only where one is near (`_names_near`): a long server name written over and over
        # in a long message made reading each width anew quadratic (flake63: 0.5 s CPU for
        # 2,000 characters).
        start = words[at][1]
        parts: list[str] = []  # the words so far, a run of glued ones as one
        key = ""  # and joined: the name key they spell
        capitals = 0  # in the surface so far (as_typed False: its upper case), counted up to 2
        names_open = True  # may a name (not a server alias) be read here or wider?
        for last in range(at, at + min(max_words, len(words) - at)):
            if last > at and glued[last - 1]:
                parts[-1] += folded[last]
            else:
                parts.append(folded[last])
            key += folded[last]
            end = words[last][2]
            if capitals < 2:
                piece = text[words[last - 1][2] if last > at else start : end]
                capitals += sum(map(str.isupper, piece if as_typed else piece.upper()))
            near = _names_near(names.keys, key) if names_open else None
            names_open = near is not None  # once closed, closed wider too (the key only grows)
            entry = None
            if near:
                words_read = (tuple(parts), capitals >= 2)
                entry = read_before.get(words_read, -1)  # -1: not read (entries count from 0)
                if entry == -1:
                    entry = _entry_for(parts, key, capitals, names, server.found_by, allowed)
                    if entry is None and len(parts) > 1 and not as_typed:
                        entry = _derived_entry(key, names, allowed)  # "over-refuse": over-refusal
                    if len(read_before) < _REMEMBERED:
                        read_before[words_read] = entry
            elif key in server.found_by:  # no name is near: an alias only
                entry = _entry_for(parts, key, capitals, names, server.found_by, allowed, near)
            if entry is not None and _bounded(text, start, end):
                best = (entry, last - at + 1)
            # No name goes on past these words: stop widening ("kv cache" yes, "kv cache is").
            if not (names_open and names.has_prefix(key)) and not server.has_prefix(key):
                break
        if best is None:
            # a word that only starts a longer name not written here names the noun it is a
            # form of, as any other form does ("people say they quantize a model": Quantization,
            # not the start of "quantized low-rank adaptation"; "distill" of "distillation ..."),
            # where the text writes no name as it is (below)
            if not as_typed and NAME_STARTS_AS_FORMS:
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


def _script(char: str) -> int | None:
    """Han, hiragana or katakana (0, 1, 2), or None for any other character."""
    return next((i for i, chars in enumerate(_SCRIPT_OF) if chars.match(char)), None)


def _bounded(text: str, start: int, end: int) -> bool:
    """May the name written at text[start:end] be read as a word there (`_KATAKANA`)? Each
    side is a bound when the characters across it are of different scripts, or, for a
    two-character Han name, when a Chinese function word stands there (`_FUNCTION_WORDS`)."""
    first, last = text[start], text[end - 1]
    open_left = start > 0 and _script(text[start - 1]) == _script(first) is not None
    open_right = end < len(text) and _script(text[end]) == _script(last) is not None
    if end - start == 2 and _HAN_OR_KANA.fullmatch(text, start, end):
        open_left = open_left and not text.endswith(_FUNCTION_WORDS, 0, start)
        open_right = open_right and not text.startswith(_FUNCTION_WORDS, end)
        return not (open_left or open_right)
    katakana = _script(first) == 2, _script(last) == 2
    return not (katakana[0] and open_left) and not (katakana[1] and open_right)


def _has_prefix(key: str, names: NameTable, server: ServerAliases) -> bool:
    return names.has_prefix(key) or server.has_prefix(key)


def _names_near(keys: list[str], key: str) -> bool | None:
    """Might one of the sorted `keys` be a key looked up for `key`: one beginning with all but
    its last `_FORM_DROPS` letters, at most `_FORM_ADDS` letters longer than it? None where none
    even begins so (nor then for any key `key` begins), so a long name that a message writes
    over and over is not looked up at every width of it."""
    kept = key[:-_FORM_DROPS]
    at = bisect.bisect_left(keys, kept)
    if at == len(keys) or not keys[at].startswith(kept):
        return None
    longest = len(key) + _FORM_ADDS
    if len(keys[at]) <= longest:
        return True
    # `keys[at]`, the first key so begun, is too long; any short enough comes after every key
    # beginning with its first `longest + 1` letters, so after the first past them.
    run = keys[at][: longest + 1]
    if run[-1] == chr(sys.maxunicode):
        return True  # no string follows the run's keys there: do not rule a name out
    past = bisect.bisect_left(keys, run[:-1] + chr(ord(run[-1]) + 1), at)
    return past < len(keys) and keys[past].startswith(kept)


def _derived_entry(word: str, names: NameTable, allowed: Callable[[int], bool]) -> int | None:
    """The one entry a verb or adjective form names by its noun ("decontaminate")."""
    for form in derived_forms(word):
        hits = [h for h in names.lookup(form) if not h.cased and allowed(h.entry)]
        if hits and form not in GENERIC_WORDS:
            return hits[0].entry if len({h.entry for h in hits}) == 1 else None
    return None


def _entry_for(
    parts: list[str],
    key: str,
    capitals: int,
    names: NameTable,
    server: dict[str, int],
    allowed: Callable[[int], bool],
    near: bool | None = True,
) -> int | None:
    """The entry `parts` (joined: `key`) name, written with `capitals` capital letters; a
    server alias only, unless a name is `near` (`_names_near`)."""
    variants = plural_variants(key) if len(parts) == 1 else None
    if variants is not None:
        # two letters are too few to be a name, but two Han or kana characters are a word
        too_short = len(key) < 2 or (len(key) == 2 and not _HAN_OR_KANA.fullmatch(key))
        if too_short or not GENERIC_WORDS.isdisjoint((key, *variants)):
            return None
    if key in server and allowed(server[key]):
        return server[key]
    if not near:
        return None
    if variants is None:
        variants = plural_variants(key)
    shouted = capitals >= 2
    for candidate in (key, *variants):
        # Written in capitals, an acronym ("RAG") before a word of the same letters ("rag").
        hits = sorted(names.lookup(candidate), key=lambda h: not h.cased) if shouted else None
        for hit in hits or names.lookup(candidate):
            if _links(hit, parts, candidate, capitals, names) and allowed(hit.entry):
                return hit.entry
    return None


def _links(hit: Hit, parts: list[str], key: str, capitals: int, names: NameTable) -> bool:
    if hit.cased and capitals < 2:
        return False
    if len(parts) > 1:
        # "kv caches" for "KV Cache", "paged attention" for "PagedAttention"; not "a gent".
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


def _starts_joined_words(word: str, names: NameTable) -> bool:
    """Is `word` the first two or more words of a name run together ("multihead" of "multi
    head attention")? Only worth widening from if some name goes on past it."""
    return len(word) >= _JOINED_LENGTH and names.has_prefix(word)


def _joins_words(parts: list[str], words: list[str]) -> bool:
    """Are `parts` a name's `words` with some spaces or hyphens dropped ("multihead attention"
    for "multi-head attention"), never a word split in two ("a gent")? The last part may be
    in the other number."""
    if len(parts) >= len(words):
        return False
    ends = set(itertools.accumulate(map(len, words)))
    return all(end in ends for end in itertools.accumulate(map(len, parts[:-1])))
