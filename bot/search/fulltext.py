"""Reverse lookup: which entry a description describes ("cache of keys and values").

A BM25 inverted index over names, keywords, summaries and every source's definition, held in
numpy arrays (postings sorted by term, then document). Building tokenises all text in one regex
pass and counts with `np.unique`, so 100k definitions index in well under a second.

Besides the BM25 rank, each hit reports its *coverage*: the share of the query's information (its
terms' idf) that the document contains. A description that covers the whole query is evidence; one
matching word of four is not.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from bot.search.bulkwords import hashed_words
from bot.search.query import STOPWORDS

_K1 = 1.2
_B = 0.75
_TOKEN = re.compile(r"[^\W_]+")


# A light English stemmer as three regex passes, so that tens of thousands of words are stemmed
# in one call over a newline-joined string. It only has to send a query word and the text's word
# to the same key, not to be linguistic: "keys"/"key", "caching"/"cache", "decoupled"/"decouple",
# "queries"/"query", "optimiser"/"optimizer", "embedding"/"embeddings".
# (Lookarounds rather than groups: a replacement template costs a Python call per match.)
_BRITISH = re.compile(r"(?m)(?<=[a-z]{2})is(?=(?:e|es|ed|ing|er|ers|ation|ations)$)")
_SUFFIX = re.compile(r"(?m)(?<=[a-z]{3})(?:ies|ings|ing|ed|es|(?<![sui])s|e|y)$")
_DOUBLE = re.compile(r"(?m)(?<=([^aeiouylsz\n]))\1$")


def stem_many(words: Sequence[str]) -> list[str]:
    """Stems of many words at once; words of three letters or fewer, or with digits, stay."""
    stemmed = list(words)
    chosen = [i for i, w in enumerate(words) if len(w) > 3 and w.isalpha() and w.isascii()]
    if chosen:
        joined = "\n".join(words[i] for i in chosen)
        joined = _DOUBLE.sub("", _SUFFIX.sub("", _BRITISH.sub("iz", joined)))
        for i, word in zip(chosen, joined.split("\n"), strict=True):
            stemmed[i] = word
    return stemmed


def stem(word: str) -> str:
    return stem_many([word])[0]


def tokens_of(text: str) -> list[str]:
    """Lower-cased word tokens of one text (documents in plain ASCII are tokenised in bulk)."""
    return _TOKEN.findall(unicodedata.normalize("NFKC", text).casefold())


# For plain ASCII text one byte-table pass replaces the tokenising regex: case folded, every
# character but letters, digits and the document separator blanked, then `str.split`.
_SEPARATOR = "\x01"
_STOPWORD_ID = -1
_CHUNK = 5_000  # documents tokenised at once: small arrays stay in cache (and in budget)
_COMMON = 0.2  # a word in more than this share of documents is left out of the sums
_SMALL = 300  # postings below which a query is summed in plain Python
# BM25's length normalisation divides a document's (weighted) length by this, not by the mean of
# whatever is indexed: with the mean, text added to any entry (an asked-as phrasing) or a server's
# terms moved every other entry's score, and cards on the bar came and went with them (issue #12,
# task layer47). The bundled glossary's mean when it was fixed (194.66 on 2026-12-05, cut to two
# decimals so that no score moved across a bar that day); a length, like k1 and b, not a statistic.
REFERENCE_LENGTH = 194.65
_ASCII_WORDS = bytes.maketrans(
    bytes(range(128)),
    bytes(
        c + 32 if 65 <= c <= 90 else c if (c == 1 or 48 <= c <= 57 or 97 <= c <= 122) else 32
        for c in range(128)
    ),
)


@dataclass(frozen=True, slots=True)
class TextHit:
    document: int
    bm25: float
    coverage: float  # 0-1: share of the query's idf the document contains
    matched: int  # how many distinct query terms it contains
    evidence: float  # the idf of those terms, summed: rare words are worth more


class FullTextIndex:
    """BM25 over weighted fields; documents are positions in the caller's entry list."""

    # log(2N), about the largest idf here: BM25 over it holds one bar at any glossary size
    # (`ranking.STRONG_DESCRIPTION`); with a reference, the reference's.
    scale: float

    def __init__(
        self,
        fields: Sequence[tuple[Sequence[str], float]],
        size: int,
        reference: FullTextIndex | None = None,
    ) -> None:
        """`fields`: (one text per document, weight) pairs, e.g. names x3, definitions x1.
        `reference`: the index whose word statistics these scores are read against (a server's
        index reads the bundled glossary's, `SearchIndex`): a word it knows weighs what it weighs
        there, and the bars hold its scale, so a server's terms move no bundled entry's score."""
        self.size = size
        self._stems: dict[str, int] = {}
        # Word hash -> stem id, as sorted arrays (only needed while building).
        self._known_hashes = np.zeros(0, dtype=np.uint64)
        self._known_stems = np.zeros(0, dtype=np.int64)
        pairs: list[npt.NDArray[np.int64]] = []  # term * size + document
        counts: list[npt.NDArray[np.float64]] = []  # weighted term frequency of each pair
        for texts, weight in fields:
            for start in range(0, len(texts), _CHUNK):
                terms, owners = self._terms(texts[start : start + _CHUNK])
                found, frequency = np.unique(
                    terms * max(1, size) + owners + start, return_counts=True
                )
                pairs.append(found)
                counts.append(frequency * weight)
        del self._known_hashes, self._known_stems
        empty = [np.zeros(0, dtype=np.int64)]
        self._build(np.concatenate(pairs or empty), np.concatenate(counts or empty), reference)

    def _terms(self, texts: Sequence[str]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """Stem ids of all the documents' words, with the document of each (stopwords dropped)."""
        ascii_only = list(map(str.isascii, texts))
        plain = [i for i, simple in enumerate(ascii_only) if simple]
        data = _SEPARATOR.join(texts[i] for i in plain).encode("ascii").translate(_ASCII_WORDS)
        hashes, starts, ends, documents = hashed_words(data, ord(_SEPARATOR))
        distinct, first, inverse = np.unique(hashes, return_index=True, return_inverse=True)
        # Words seen in earlier chunks map through sorted arrays; only new ones are stemmed.
        mapped = np.zeros(len(distinct), dtype=np.int64)
        seen = np.zeros(len(distinct), dtype=bool)
        if len(self._known_hashes):
            at = np.searchsorted(self._known_hashes, distinct).clip(max=len(self._known_hashes) - 1)
            seen = self._known_hashes[at] == distinct
            mapped[seen] = self._known_stems[at[seen]]
        new = np.flatnonzero(~seen)
        spans = zip(starts[first[new]].tolist(), ends[first[new]].tolist(), strict=True)
        mapped[new] = self._stem_ids([data[a:b].decode("ascii") for a, b in spans])
        self._remember(distinct[new], mapped[new])
        terms = mapped[inverse.ravel()]
        owners = np.asarray(plain, dtype=np.int64)[documents] if plain else documents
        for i, simple in enumerate(ascii_only):
            if not simple:  # rare: curly quotes, accents; the regex handles any script
                text = texts[i]
                more = np.array(self._stem_ids(tokens_of(text)), dtype=np.int64)
                terms = np.concatenate((terms, more))
                owners = np.concatenate((owners, np.full(len(more), i, dtype=np.int64)))
        keep = terms >= 0
        return terms[keep], owners[keep]

    def _remember(self, hashes: npt.NDArray[np.uint64], stems: npt.NDArray[np.int64]) -> None:
        if len(hashes):
            merged = np.concatenate((self._known_hashes, hashes))
            order = np.argsort(merged, kind="stable")
            self._known_hashes = merged[order]
            self._known_stems = np.concatenate((self._known_stems, stems))[order]

    def _stem_ids(self, words: list[str]) -> list[int]:
        stems = self._stems
        return [
            _STOPWORD_ID if word in STOPWORDS else stems.setdefault(root, len(stems))
            for word, root in zip(words, stem_many(words), strict=True)
        ]

    def _build(
        self,
        pairs: npt.NDArray[np.int64],
        counts: npt.NDArray[np.float64],
        reference: FullTextIndex | None,
    ) -> None:
        n_docs = max(1, self.size)
        pairs, inverse = np.unique(pairs, return_inverse=True)  # a term in several fields
        tf = np.bincount(inverse, weights=counts)
        pair_terms, pair_docs = pairs // n_docs, pairs % n_docs
        lengths = np.bincount(pair_docs, weights=tf, minlength=n_docs)
        df = np.bincount(pair_terms, minlength=len(self._stems)).astype(np.float64)
        self._idf = np.log1p((n_docs - df + 0.5) / (df + 0.5))
        if reference is None:
            self.scale = float(np.log(2 * n_docs))
            self._common_idf = float(
                np.log1p((n_docs - _COMMON * n_docs + 0.5) / (_COMMON * n_docs + 0.5))
            )
            self._unknown_idf = float(np.log1p((n_docs + 0.5) / 0.5))
        else:  # a word the reference knows weighs what it weighs there; its own words, as here
            for word, term in self._stems.items():
                known = reference._stems.get(word)
                if known is not None:
                    self._idf[term] = reference._idf[known]
            self.scale = reference.scale
            self._common_idf = reference._common_idf
            self._unknown_idf = reference._unknown_idf
        norm = _K1 * (1 - _B + _B * lengths[pair_docs] / REFERENCE_LENGTH)
        self._weights = (self._idf[pair_terms] * tf * (_K1 + 1) / (tf + norm)).astype(np.float32)
        self._docs = pair_docs.astype(np.int32)
        self._starts = np.searchsorted(pair_terms, np.arange(len(self._stems) + 1))

    def documents_using(self, word: str) -> int:
        """How many documents use `word` (lower case), in any form the stemmer joins?"""
        term = self._stems.get(stem(word))
        return 0 if term is None else int(self._starts[term + 1] - self._starts[term])

    def strength(self, text: str, document: int) -> float:
        """How strongly `text` describes `document`: its BM25 over `scale` (0 where it shares
        no telling word with the text)."""
        hits = self.search(text, limit=self.size)
        bm25 = next((h.bm25 for h in hits if h.document == document), 0.0)
        return bm25 / self.scale

    def search(self, text: str, limit: int = 10) -> list[TextHit]:
        """Best documents for a description, by BM25, with their coverage of the query."""
        wanted = dict.fromkeys(stem_many([w for w in tokens_of(text) if w not in STOPWORDS]))
        if not wanted or self.size == 0:
            return []
        known = [self._stems[s] for s in wanted if s in self._stems]
        total_idf = sum(float(self._idf[t]) for t in known)
        total_idf += self._unknown_idf * (len(wanted) - len(known))
        # Words in most documents ("model" in an AI glossary) say little and cost the most:
        # leave them out of the sums when the query has better ones.
        telling = [t for t in known if self._idf[t] >= self._common_idf]
        if telling:
            total_idf -= sum(float(self._idf[t]) for t in known if t not in telling)
            known = telling
        if not known:
            return []
        parts = [
            (int(self._starts[t]), int(self._starts[t + 1]), float(self._idf[t])) for t in known
        ]
        if sum(b - a for a, b, _ in parts) <= _SMALL:
            return self._search_small(parts, total_idf, limit)
        docs = np.concatenate([self._docs[a:b] for a, b, _ in parts])
        weights = np.concatenate([self._weights[a:b] for a, b, _ in parts])
        idfs = np.concatenate([np.full(b - a, idf) for a, b, idf in parts])
        owners, inverse = np.unique(docs, return_inverse=True)
        bm25 = np.bincount(inverse, weights=weights)
        covered = np.bincount(inverse, weights=idfs)
        matched = np.bincount(inverse)
        order = np.argsort(-bm25, kind="stable")[:limit]
        return [
            TextHit(
                int(owners[i]),
                float(bm25[i]),
                float(covered[i] / total_idf),
                int(matched[i]),
                float(covered[i]),
            )
            for i in order
        ]

    def _search_small(
        self, parts: list[tuple[int, int, float]], total_idf: float, limit: int
    ) -> list[TextHit]:
        """The same sums in plain Python: for a few hundred postings numpy's call overhead
        costs more than the work."""
        scores: dict[int, list[float]] = {}  # document -> [bm25, idf covered, terms matched]
        for start, end, idf in parts:
            docs = self._docs[start:end].tolist()
            weights = self._weights[start:end].tolist()
            for doc, weight in zip(docs, weights, strict=True):
                found = scores.get(doc)
                if found is None:
                    scores[doc] = [weight, idf, 1.0]
                else:
                    found[0] += weight
                    found[1] += idf
                    found[2] += 1.0
        best = sorted(scores.items(), key=lambda item: (-item[1][0], item[0]))[:limit]
        return [
            TextHit(doc, bm25, covered / total_idf, int(matched), covered)
            for doc, (bm25, covered, matched) in best
        ]
