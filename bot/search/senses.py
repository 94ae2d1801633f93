"""An entry's plain-word name read in one of its other senses (task offfield76, issue #12).

"what is a transformer on a power pole" writes the Transformers entry's name, yet asks about the
power grid; "where does the attention line go on a business letter", "difference between a llama
and an alpaca" the same. The everyday checks (`bot.search.everyday`) read the rest of a sentence
against the field as a whole or against broad settings (a school, a game); a word's other sense
is narrower than that, and a rest like "on a power pole" is near neither. So each such entry
names its other senses in data (`other_senses.toml`, a few words each, written from general
knowledge), and a card is offered instead where the text, and the text without the name, lean
to one of those senses rather than to the entry: the two leads (best sense cosine minus the
entry's best row cosine, for each text) summed reach `SENSE_LEAD`. Reading both guards both
ways: the whole text alone follows the name ("can someone explain transformers like im 5" is a
little nearer the cartoons than the entry), the rest alone follows what is said around it ("ok
what actually is a transformer, not the robots": its rest is near the robot toys); each lead
stays under the bar where the field is asked, and the two together clear it where it is not.
"""

from __future__ import annotations

import tomllib
import weakref
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from bot.search.semantic import SemanticIndex

OTHER_SENSES = Path(__file__).with_name("other_senses.toml")
# How far, summed over the whole text and the text without the name, the best other sense must
# lead the entry. Set on the tuning slices' cards for the 38 entries with senses (660 cards, 210
# writing the name beside other words): the off-topic ones caught sum 0.17-1.02; the highest
# right card, "ok what actually is a transformer, not the robots", 0.09, every other 0.03 or less.
SENSE_LEAD = 0.13

# The text without the name must say this many words of its own (letters only, no STOPWORDS):
# "what is llama and who made it", "eli5 what attention is pls" say too little to judge.
REST_WORDS = 2

_vectors: weakref.WeakKeyDictionary[SemanticIndex, dict[str, npt.NDArray[np.float32]]] = (
    weakref.WeakKeyDictionary()
)


@cache
def other_senses() -> dict[str, tuple[str, ...]]:
    """Each entry id's other senses, as written in `other_senses.toml`."""
    with OTHER_SENSES.open("rb") as f:
        table = tomllib.load(f)
    return {entry_id: tuple(value["senses"]) for entry_id, value in table.items()}


def has_other_senses(entry_id: str) -> bool:
    return entry_id in other_senses()


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
    semantic: SemanticIndex, entry_id: str, position: int, text: str, start: int, end: int
) -> bool:
    """Is the name at `text[start:end]` (normalized text), naming the entry `entry_id` at
    `position` in `semantic`, used in one of the entry's other senses: do the text and its rest
    without the name together lean to one of them over the entry by `SENSE_LEAD`? A rest that
    says nothing ("what is a ?") is no evidence."""
    senses = _sense_vectors(semantic).get(entry_id)
    rest = _rest(text, start, end)
    if senses is None or rest is None:
        return False
    texts = semantic.encoder.encode_queries([text, rest])  # one pass
    entry = semantic.entry_cosines(texts)[:, position]
    lead = (senses @ texts.T).max(axis=0) - entry
    return float(lead.sum()) >= SENSE_LEAD


def _sense_vectors(semantic: SemanticIndex) -> dict[str, npt.NDArray[np.float32]]:
    """The senses' vectors, one matrix an entry id, embedded once (one pass) for the bundled
    index a server's is searched beside."""
    while semantic.base is not None:
        semantic = semantic.base
    found = _vectors.get(semantic)
    if found is None:
        senses = other_senses()
        ids = [entry_id for entry_id, written in senses.items() for _ in written]
        every = semantic.encoder.encode_queries([s for written in senses.values() for s in written])
        found = {
            entry_id: every[[n for n, i in enumerate(ids) if i == entry_id]] for entry_id in senses
        }
        _vectors[semantic] = found
    return found
