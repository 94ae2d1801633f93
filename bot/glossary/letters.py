"""Where text may be cut without splitting a letter: one home for every text fitted to a limit
(a card's fields, an autocomplete choice's 100 characters), so that no cut shows half a
syllable, a letter without its accents or half an emoji.

A simplified reading of Unicode's grapheme clusters (UAX #29) for the cases people write: marks
after their letter (accents, Thai and Devanagari vowel signs, variation selectors, a keycap),
a conjunct joined at its virama, emoji joined by ZWJ, skin tones, flags of two regional
indicators or of tag characters. And which scripts have no spaces between words, for the
readers that find words.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

# Scripts written without spaces between words (Thai, Lao, Myanmar, Khmer, kana, Han, halfwidth
# katakana), as ranges for a character class: a word there is not a run of letters.
SPACELESS_SCRIPTS = (
    "\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff"
    "\uf900-\ufaff\uff66-\uff9f"
)


def _mark_ranges() -> str:
    """Every combining mark of the Basic Multilingual Plane (categories Mn, Mc, Me), as ranges
    for a character class: a vowel sign or an accent written after its letter is in its word."""
    marks = [c for c in range(0x10000) if unicodedata.category(chr(c)).startswith("M")]
    ranges: list[tuple[int, int]] = []
    for code in marks:
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1] = (ranges[-1][0], code)
        else:
            ranges.append((code, code))
    return "".join(chr(a) if a == b else f"{chr(a)}-{chr(b)}" for a, b in ranges)


COMBINING_MARKS = _mark_ranges()

_ZWJ = "\u200d"
_VIRAMA = 9  # combining class: the letter after a virama joins the one before it


def whole_letters_cut(text: str, cut: int) -> int:
    """`cut` (at most `len(text)`), moved back until `text[:cut]` ends with a whole letter."""
    cut = min(max(cut, 0), len(text))
    while 0 < cut < len(text) and _inside_a_letter(text, cut):
        cut -= 1
    return cut


def _inside_a_letter(text: str, cut: int) -> bool:
    before, after = text[cut - 1], text[cut]
    return (
        unicodedata.category(after).startswith("M")
        or _ZWJ in (before, after)
        or unicodedata.combining(before) == _VIRAMA
        or "\U0001f3fb" <= after <= "\U0001f3ff"  # a skin tone
        or "\U000e0020" <= after <= "\U000e007f"  # a tag of a flag ("🏴" + gbsct + end)
        or (_regional(after) and _regional_run_before(text, cut) % 2 == 1)
    )


def _regional(char: str) -> bool:
    return "\U0001f1e6" <= char <= "\U0001f1ff"


def _regional_run_before(text: str, cut: int) -> int:
    """How many regional indicators run up to `cut`: flags pair them from the run's start."""
    count = 0
    while cut - count > 0 and _regional(text[cut - count - 1]):
        count += 1
    return count


# Cutting text to a limit with a visible marker: a card's fields, what the bot repeats of a
# user's words, a value a glossary problem quotes.
MARKER = " […]"
_SENTENCE_END = re.compile(r"[.!?](?=\s)")


def fit(text: str, limit: int) -> str:
    """`text` if it fits in `limit` characters; else its longest whole-sentence (or word) prefix
    that fits with the marker. Never longer than `limit`."""
    text = text.strip()
    if len(text) <= limit:
        return text
    room = limit - len(MARKER)
    if room <= 0:  # no room for the marker
        return _escapes_whole(text[: whole_letters_cut(text, limit)])
    head = text[: whole_letters_cut(text, room)]
    ends = [m.end() for m in _SENTENCE_END.finditer(head + " ")]
    if ends and ends[-1] >= room // 3:
        return head[: ends[-1]] + MARKER
    space = head.rfind(" ")
    return (head[:space] if space >= room // 3 else _escapes_whole(head)).rstrip() + MARKER


# Where a name is cut in its middle (`fit_name`).
MIDDLE_MARKER = " […] "


def fit_name(name: str, limit: int) -> str:
    """`name` (a title) if it fits in `limit` characters; else its start and its end, whole
    letters, about two to one, with the marker between: two long titles that differ only in
    their last words, cut at the end, read as one (a refusal naming both, two buttons, two
    choices). Never longer than `limit`."""
    name = name.strip()
    room = limit - len(MIDDLE_MARKER)
    if len(name) <= limit or room < 6:  # too short a limit for a start and an end: `fit`'s
        return fit(name, limit)
    end = len(name) - room // 3
    while end < len(name) and _inside_a_letter(name, end):
        end += 1
    space = name.find(" ", end)  # at a word where one starts soon enough
    tail = name[space if 0 <= space - end < room // 9 else end :].lstrip()
    head = name[: whole_letters_cut(name, room - len(tail))]
    space = head.rfind(" ")
    head = head[:space] if space >= len(head) * 3 // 4 else _escapes_whole(head)
    return head.rstrip() + MIDDLE_MARKER + tail


# Where text before a kept part is cut away (`fit_around`).
LEAD_MARKER = "[…] "


def fit_around(text: str, start: int, end: int, limit: int) -> str:
    """`text` if it fits in `limit` characters; else the part `text[start:end]` (what matched,
    in a long question) with as much on either side as fits, whole words where they can be,
    marked where cut: cut at its end only (`fit`), the part may be what is cut away. Never
    longer than `limit`."""
    room = limit - len(LEAD_MARKER) - len(MARKER)
    if len(text) <= limit or end - start >= room:
        return fit(text if len(text) <= limit else text[start:], limit)
    spare = room - (end - start)
    after = min(len(text) - end, spare - min(start, spare // 2))
    left, right = start - min(start, spare - after), end + after
    if left > 0:  # start at a word, or at least a whole letter
        space = text.find(" ", left, start)
        left = space + 1 if space != -1 else left
        while left < start and _inside_a_letter(text, left):
            left += 1
    if right < len(text):
        space = text.rfind(" ", end, right)
        right = space if space != -1 else whole_letters_cut(text, right)
    lead = LEAD_MARKER if left > 0 else ""
    return lead + text[left:right].strip() + (MARKER if right < len(text) else "")


def _escapes_whole(head: str) -> str:
    """`head`, cut inside a word, less a backslash the cut parted from what it escapes (text
    given back escaped, "\\*" for a typed "*"): alone it would be shown, a stray."""
    run = len(head) - len(head.rstrip("\\"))
    return head[:-1] if run % 2 else head


def fit_names(names: Sequence[str], limit: int) -> list[str]:
    """Each of `names` (titles shown side by side: choices, buttons, a menu's options) as
    `fit_name` cuts it; but two titles alike in their start and their end, differing only in
    their middle, would read as one so: each of those shows, between its start and its end,
    where it parts from the other (start […] middle […] end)."""
    cuts = [fit_name(name, limit) for name in names]
    alike: dict[str, set[str]] = {}
    for name, cut in zip(names, cuts, strict=True):
        alike.setdefault(cut, set()).add(name.strip())
    for n, name in enumerate(names):
        others = alike[cuts[n]] - {name.strip()}
        if others:
            name = name.strip()
            parts = max(_common_start(name, other) for other in others)
            cuts[n] = _fit_around(name, parts, limit) or cuts[n]
    return cuts


def _at_a_word(text: str) -> str:
    """`text` less a word cut at its end, when a space is near enough (its last quarter)."""
    space = text.rfind(" ")
    return text[:space] if space >= len(text) * 3 // 4 else text


def _common_start(one: str, other: str) -> int:
    n = 0
    while n < min(len(one), len(other)) and one[n] == other[n]:
        n += 1
    return n


def _fit_around(name: str, at: int, limit: int) -> str | None:
    """`name`'s start, the stretch around `at`, its end, a marker between each, whole letters;
    None when `limit` leaves too little room for three parts."""
    room = limit - 2 * len(MIDDLE_MARKER)
    if room < 18:
        return None
    third = room // 3
    head = _at_a_word(name[: whole_letters_cut(name, third)])
    tail_from = len(name) - third
    while tail_from < len(name) and _inside_a_letter(name, tail_from):
        tail_from += 1
    start = max(len(head), min(at - third // 4, tail_from - third))
    space = name.rfind(" ", len(head), start + 1)
    start = space + 1 if space >= 0 and start - space <= third // 3 else start
    start = whole_letters_cut(name, start)  # `at` stays inside: a third's quarter and a third
    middle = _at_a_word(name[start : whole_letters_cut(name, min(start + third, tail_from))])
    return (
        _escapes_whole(head).rstrip()
        + MIDDLE_MARKER
        + _escapes_whole(middle).strip()
        + MIDDLE_MARKER
        + name[tail_from:].lstrip()
    )
