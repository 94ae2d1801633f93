"""An entry's plain-word name read in one of its other senses (tasks offfield76 and senses77,
issue #12).

"what is a transformer on a power pole" writes the Transformers entry's name, yet asks about the
power grid; "where does the attention line go on a business letter", "difference between a llama
and an alpaca" the same. The everyday checks (`bot.search.everyday`) read the rest of a sentence
against the field as a whole or against broad settings (a school, a game); a word's other sense
is narrower than that, and a rest like "on a power pole" is near neither. So each such entry
names its other senses in data (`Entry.other_senses`: the glossary's `other-senses/*.toml`, or
a server term's own, a few words each, written from general knowledge), and a card is offered
instead where the text, and the text without the name, lean to one of those senses rather than to the entry: the two leads (best sense cosine minus the
entry's best row cosine, for each text) summed reach `SENSE_LEAD`. Reading both guards both
ways: the whole text alone follows the name ("can someone explain transformers like im 5" is a
little nearer the cartoons than the entry), the rest alone follows what is said around it ("ok
what actually is a transformer, not the robots": its rest is near the robot toys); each lead
stays under the bar where the field is asked, and the two together clear it where it is not.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from bot.search.semantic import SemanticIndex

# How far, summed over the whole text and the text without the name, the best other sense must
# lead the entry. Set on the tuning slices' cards for the 38 entries with senses (660 cards, 210
# writing the name beside other words): the off-topic ones caught sum 0.17-1.02; the highest
# right card, "ok what actually is a transformer, not the robots", 0.09, every other 0.03 or less.
SENSE_LEAD = 0.13

# The text without the name must say this many words of its own (letters only, no STOPWORDS):
# "what is llama and who made it", "eli5 what attention is pls" say too little to judge.
REST_WORDS = 2

# Sense lists kept embedded for one bundled index (and the servers' indexes over it): the
# bundled entries' few dozen and every server term's; past this many the kept ones are let go
# and embedded again as asked for (a server's edits leave its old lists behind).
MAX_KEPT = 4096

Vectors = dict[tuple[str, ...], "npt.NDArray[np.float32]"]
_vectors: weakref.WeakKeyDictionary[SemanticIndex, Vectors] = weakref.WeakKeyDictionary()


def _rest(text: str, start: int, end: int) -> str | None:
    """`text` without the name at `text[start:end]`, or None where no letter is left ("define
    kv cache": nothing to read)."""
    rest = f"{text[:start]} {text[end:]}".strip()
    return rest if any(c.isalpha() for c in rest) else None


def says_enough(text: str, start: int, end: int) -> bool:
    """Does `text` without the name at `text[start:end]` say `REST_WORDS` words of its own?"""
    rest = _rest(text, start, end)
    if rest is None:
        return False
    from bot.search.everyday import content_words  # numpy: not for a command that needs no search

    return sum(w.isalpha() for w in content_words(rest)) >= REST_WORDS


def read_in_other_sense(
    semantic: SemanticIndex,
    senses: tuple[str, ...],
    position: int,
    text: str,
    start: int,
    end: int,
    every: Callable[[], Iterable[tuple[str, ...]]] = tuple,
) -> bool:
    """Is the name at `text[start:end]` (normalized text), naming the entry at `position` in
    `semantic` whose other senses are `senses` (`Entry.other_senses`), used in one of them: do
    the text and its rest without the name together lean to one of them over the entry by
    `SENSE_LEAD`? A rest that says nothing ("what is a ?") is no evidence, nor is an entry with
    no rows of its own yet (a server term whose vectors have not arrived). `every`: the sense
    lists of the index's other entries, embedded in the same pass when these are not kept yet
    (the bundled glossary's in one pass a process, as before)."""
    rest = _rest(text, start, end)
    if not senses or rest is None:
        return False
    vectors = _sense_vectors(semantic, senses, every)
    texts = semantic.encoder.encode_queries([text, rest])  # one pass
    cosines = semantic.entry_cosines(texts)
    if position >= cosines.shape[1] or float(cosines[:, position].min()) <= -1.0:
        return False
    lead = (vectors @ texts.T).max(axis=0) - cosines[:, position]
    return float(lead.sum()) >= SENSE_LEAD


def _sense_vectors(
    semantic: SemanticIndex,
    senses: tuple[str, ...],
    every: Callable[[], Iterable[tuple[str, ...]]],
) -> npt.NDArray[np.float32]:
    """The vectors of `senses`, one row a sense, kept for the bundled index a server's is
    searched beside; where they are not kept yet, embedded with every list `every` gives that is
    not either, in one pass (a text's vector does not depend on the others in its pass)."""
    while semantic.base is not None:
        semantic = semantic.base
    kept = _vectors.setdefault(semantic, {})
    found = kept.get(senses)
    if found is not None:
        return found
    if len(kept) >= MAX_KEPT:
        kept.clear()
    lists = list(dict.fromkeys([senses, *(s for s in every() if s and s not in kept)]))
    embedded = semantic.encoder.encode_queries([s for written in lists for s in written])
    at = 0
    for written in lists:
        kept[written] = embedded[at : at + len(written)]
        at += len(written)
    return kept[senses]
