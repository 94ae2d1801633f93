"""How close a typed string is to a name, 0-100, scored in bulk by rapidfuzz.

No single rapidfuzz scorer ranks names well (SEARCH-NOTES): WRatio and token_set_ratio give 90-100
to any short name inside the query, partial_ratio gives 100 to any substring. `ratio` (with a
transposition counted as one typo) is best on typos, `token_sort_ratio` catches reordered words, and `partial_ratio`, discounted by how little of the
name the query covers and only where the name is longer than the query, catches a term typed in
part ("speculative" for "speculative decoding").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt
from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

from bot.search.everyday import common_words
from bot.search.query import derived_forms, plural_variants

# At most 0.85 x 100: a name containing the query is a lead worth offering, never an answer
# on its own ("dense retrieval" is inside "sparse-dense retrieval", a different concept).
PARTIAL_BASE = 0.70
PARTIAL_COVERAGE = 0.15
PARTIAL_MIN_LENGTH = 4  # "rag" is inside "fragment": partial matching needs a longer query
PARTIAL_CANDIDATES = 12  # partial_ratio is ~10x slower than ratio
_FEW = 8


def _scores(
    query: str, choices: Sequence[str], scorer: Callable[..., float]
) -> npt.NDArray[np.float64]:
    if len(choices) <= _FEW:  # cdist's set-up costs more than a few direct calls
        return np.fromiter((scorer(query, c) for c in choices), np.float64, len(choices))
    matrix = process.cdist([query], choices, scorer=scorer, dtype=np.float64)
    scores: npt.NDArray[np.float64] = np.asarray(matrix[0], dtype=np.float64)
    return scores


def typo_ratio(query: str, choices: Sequence[str]) -> npt.NDArray[np.float64]:
    """Like `fuzz.ratio`, but every typo costs the same: `ratio` counts a swapped or wrong
    letter as two edits, so "kv cahce" would score no better than a word two typos away.
    Here one edit of any kind (OSA distance) costs 1.5 insertions."""
    if len(choices) <= _FEW:
        edits = np.fromiter((OSA.distance(query, c) for c in choices), np.float64, len(choices))
    else:
        edits = process.cdist([query], choices, scorer=OSA.distance, dtype=np.int32)[0]
    lengths = np.fromiter((len(c) for c in choices), np.float64, len(choices)) + len(query)
    ratio = 1.0 - 1.5 * edits / np.maximum(lengths, 1.0)
    scores: npt.NDArray[np.float64] = np.clip(100.0 * ratio, 0.0, 100.0)
    return scores


def name_similarity(
    query_key: str, query_text: str, keys: Sequence[str], texts: Sequence[str]
) -> npt.NDArray[np.float64]:
    """Score each name (compact key and spaced text) against a finished query. `keys` come
    best candidates first: the slow partial scorer only looks at the first few."""
    best = np.maximum(_scores(query_key, keys, fuzz.ratio), typo_ratio(query_key, keys))
    if " " in query_text:
        best = np.maximum(best, _scores(query_text, texts, fuzz.token_sort_ratio))
    # A partial score is at most 85: it only adds choices, which a near-exact hit does not need
    # (the query's own key, when it is in the list, is a title part and does not count).
    near_exact = any(s >= 95 and k != query_key for k, s in zip(keys, best.tolist(), strict=True))
    if len(query_key) >= PARTIAL_MIN_LENGTH and not near_exact:
        head = list(keys[:PARTIAL_CANDIDATES])
        lengths = np.fromiter((len(k) for k in head), np.float64, len(head))
        # The less of the name the query covers, the weaker the evidence: "weight decay" inside
        # "Adam with decoupled weight decay" is a lead, not an answer.
        weight = PARTIAL_BASE + PARTIAL_COVERAGE * len(query_key) / lengths
        partial = _scores(query_key, head, fuzz.partial_ratio) * weight
        partial = np.where(lengths > len(query_key), partial, 0.0)
        best[: len(head)] = np.maximum(best[: len(head)], partial)
    return best


SHORT_NAME = 5  # "llama", "json", "lora": a word one letter longer is likely a word of its own


def another_word(query_key: str, name_key: str) -> bool:
    """Is a one-word query a short name with letters added ("ollama", "jason", "lorax")? People
    drop or swap letters of a short name when they mistype it; added ones make another word,
    often a product's name: that is a choice to offer, never the entry's card."""
    if len(name_key) > SHORT_NAME or len(query_key) <= len(name_key) or query_key == name_key:
        return False
    if _single_letters(query_key) == _single_letters(name_key):
        return False  # a letter typed twice ("llamma") is a typo
    letters = iter(query_key)
    return all(letter in letters for letter in name_key)


def look_alike_word(query_key: str, query_text: str, name_key: str) -> bool:
    """Is a query of common English words ("help", "help me") not this short name, only spelled
    near it ("help" and HELM, "more" and MoE, "jason" and JSON)? A mistyped short name is rarely
    another word ("hlem", "lorra"): the words are meant as themselves, the name is not offered.
    A plural of the name ("seeds") is the name; longer names keep their spelling variants."""
    if len(name_key) > SHORT_NAME or query_key in (name_key, name_key + "s", name_key + "es"):
        return False
    if _single_letters(query_key) == _single_letters(name_key):
        return False  # "lama": a letter of "llama" typed once is a typo
    words = query_text.split()
    return bool(words) and common_words().issuperset(words)


def everyday_word(query_key: str, query_text: str, name_key: str) -> bool:
    """Is a one-word query a common English word spelled near a longer name, and no form of it
    ("decade" and Decode, "refill" and Prefill, "sensor" and Tensor)? The word is meant as
    itself: a typo of a name rarely makes another word, so the name is not offered. Its own
    forms ("decoded", "losses", "quantisation") are the name; short names are
    `look_alike_word`'s."""
    if len(name_key) <= SHORT_NAME or " " in query_text or query_text not in common_words():
        return False
    return not _a_form_of(query_key, name_key)


_STEM = 4  # "los" of "lose" is no stem of "losses"
_ENDINGS = (
    *("ations", "ation", "ating", "ated", "ates", "ions", "ion", "ings", "ing"),
    *("ers", "er", "ed", "es", "s", "al"),
)
_COMPOUND = 2  # "un" of "unlearning", "kv" of "kv caching": a word of the name's own


def _a_form_of(word: str, name: str) -> bool:
    """Do the two share a stem ("decode" and "decoded", "optimized" and "optimizer", "loss"
    and "losses"), differ only in British spelling ("quantisation"), or is one a word of the
    other ("learning" of "unlearning", "realignment" of "alignment")?"""
    stems = _stem(word), _stem(name)
    if stems[0] == stems[1] or stems[0].replace("s", "z") == stems[1].replace("s", "z"):
        return True
    for short, long in ((word, name), (name, word)):
        if len(long) - len(short) >= _COMPOUND and (
            long.endswith(short)
            or long.startswith(short)
            or (len(stem := _stem(short)) > _STEM and long.startswith(stem))
        ):
            return True
    return (
        name in derived_forms(word)
        or word in derived_forms(name)
        or (name in plural_variants(word) or word in plural_variants(name))
    )


def _stem(word: str) -> str:
    """The word less one ending and a final "e" ("scheduled", "scheduler", "schedule":
    "schedul"); a stem keeps at least `_STEM` letters."""
    for ending in _ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= _STEM:
            word = word[: -len(ending)]
            break
    return word[:-1] if word.endswith("e") and len(word) > _STEM else word


def _single_letters(key: str) -> str:
    return "".join(letter for at, letter in enumerate(key) if at == 0 or key[at - 1] != letter)


def typing_similarity(query_key: str, keys: Sequence[str]) -> npt.NDArray[np.float64]:
    """Score each name against a query still being typed: its start may carry a typo."""
    heads = [k[: len(query_key) + 1] for k in keys]
    return np.maximum(_scores(query_key, keys, fuzz.ratio), _scores(query_key, heads, fuzz.ratio))


# How like a name a run of a longer text must be to be quoted as what matched it (a typo's
# likeness: "kv cahce" against "kv cache" is 87.5).
_NAMED_LIKENESS = 80
# The most `where_named` aligns, in characters of names times characters of text (rapidfuzz
# takes up to ~5 ns a pair where names are alike, far less with a cutoff where they are not):
# some 20 ms. A server term may hold thousands of long names (an import file): 2,000 of 100
# characters against a 4,000-character mention held the event loop 2 s (review75). The title and
# acronym come first; names past it are not tried, and the footer cuts the text at its end.
WHERE_NAMED_WORK = 4_000_000


def where_named(text: str, names: Sequence[str]) -> tuple[int, int] | None:
    """Where in `text` (start, end) is the run most like one of `names`, case ignored: the part
    of a long question a card's name matched ("what is <95 letters> kv cahce": "kv cahce"), or
    None where no run is like enough."""
    lowered = text.lower()
    if len(lowered) != len(text):  # "İ" lowers to two characters: the span would be of another
        lowered = "".join(low if len(low := ch.lower()) == 1 else ch for ch in text)
    best, work = None, 0
    for tried, name in enumerate(filter(None, names)):
        work += len(name) * len(lowered)
        if tried and work > WHERE_NAMED_WORK:  # the first name (the title) always tried
            break
        # Only a run better than the best so far is wanted: the cutoff spares most of the work.
        cutoff = _NAMED_LIKENESS if best is None else best.score
        found = fuzz.partial_ratio_alignment(name.lower(), lowered, score_cutoff=cutoff)
        if found is not None and (best is None or found.score > best.score):
            best = found
            if best.score == 100:
                break
    if best is None:
        return None
    return best.dest_start, best.dest_end
