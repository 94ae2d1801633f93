"""The semantic stage: which entries a query means, by sentence embeddings (numpy only).

Entries are embedded at load (cached on disk by content hash); a query is embedded at search time
and compared with every entry vector by cosine similarity.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from bot.glossary.models import Entry
from bot.search.semantic.vectors import TextEncoder, Vectors, default_cache_dir, embed_entries

__all__ = ["SemanticIndex", "default_cache_dir"]

# From this many vectors a scan first compares in a reduced space (principal components of the
# entry vectors), then exactly on the best rows: 100k full vectors are 150 MB to stream per query.
PREFILTER_ROWS = 20_000
PREFILTER_DIMENSIONS = 64
PREFILTER_KEPT = 1_000


class SemanticIndex:
    """Entry vectors (several rows per entry) and the encoder for queries. Immutable."""

    def __init__(
        self,
        vectors: Vectors,
        owners: npt.NDArray[np.int32],
        encoder: TextEncoder,
        embedded: int,
        base: SemanticIndex | None = None,
    ) -> None:
        self.vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        self.owners = owners
        self.encoder = encoder
        self.embedded = embedded  # texts embedded at build (not found in the cache)
        self.base = base  # searched beside these rows (the bundled glossary under a server's)
        self._basis: Vectors | None = None
        self._reduced: Vectors | None = None
        # Where each entry's rows start, when they run together (`embed_entries` writes them in
        # entry order): an entry's best row is then one `maximum.reduceat` over its run, 0.3 ms
        # less a long message than an unbuffered `maximum.at` a row; the same maxima (cost72)
        starts = np.flatnonzero(np.diff(owners, prepend=-1)) if len(owners) else owners
        self._runs = (starts, owners[starts]) if len(starts) == len(np.unique(owners)) else None
        if len(self.vectors) >= PREFILTER_ROWS:
            self._basis = _principal_axes(self.vectors, PREFILTER_DIMENSIONS)
            self._reduced = np.ascontiguousarray(self.vectors @ self._basis)

    @classmethod
    def build(
        cls,
        entries: Sequence[Entry],
        encoder: TextEncoder | None = None,
        cache_dir: Path | None = None,
    ) -> SemanticIndex:
        if encoder is None:
            from bot.search.semantic.encoder import shared_encoder

            encoder = shared_encoder()
            encoder.warm_in_background()
        vectors, owners, embedded = embed_entries(entries, encoder, cache_dir)
        return cls(vectors, owners, encoder, embedded)

    def joined(self, vectors: Vectors, owners: npt.NDArray[np.int32]) -> SemanticIndex:
        """These entries and more rows (a server's own terms, owned by positions of the server's
        index), searched together; this index's rows are shared, not copied."""
        return SemanticIndex(vectors, owners, self.encoder, 0, base=self)

    def __len__(self) -> int:
        return len(self.vectors) + (len(self.base) if self.base is not None else 0)

    def similar(self, text: str, limit: int) -> list[tuple[int, float]]:
        """The `limit` entries most similar to `text`, best first, as (position, cosine)."""
        if not len(self):
            return []
        return self.similar_to(self.encoder.encode_query(text), limit)

    def similar_to(self, query: Vectors, limit: int) -> list[tuple[int, float]]:
        own = self._similar_rows(query, limit)
        if self.base is None:
            return own
        best = dict(self.base.similar_to(query, limit))
        for owner, score in own:  # an overlaid entry has rows in both: its best counts
            best[owner] = max(score, best.get(owner, score))
        return sorted(best.items(), key=lambda item: -item[1])[:limit]

    def similar_by_clauses(
        self, whole: Vectors, clauses: Vectors, limit: int, floor: float
    ) -> list[tuple[int, float]]:
        """The `limit` entries a long text means, best first, as (position, score): the mean of
        the whole text's cosine and its clauses' vote, where a clause's cosines weigh by the
        square of how far its best rises over `floor` (a clause near nothing has no vote). The
        whole text's vector blurs a chat's asides into its clue; one clause does not."""
        cosines = self._entry_cosines(np.vstack([whole, clauses]))
        weights = np.clip(cosines[1:].max(axis=1) - floor, 0.0, None) ** 2
        if not weights.any():
            return self.similar_to(whole, limit)
        score = (cosines[0] + weights @ cosines[1:] / weights.sum()) / 2
        ranked = np.argsort(-score, kind="stable")[:limit]
        return [(int(p), float(score[p])) for p in ranked if cosines[0, p] > -1.0]

    def entry_cosines(self, queries: Vectors) -> Vectors:
        """Each entry's best row's cosine with each query: one row a query, one column an entry
        position (-1 where a position has no rows)."""
        return self._entry_cosines(queries)

    def _entry_cosines(self, queries: Vectors) -> Vectors:
        """Each entry's best row's cosine with each query: one row a query, one column an entry
        position (-1 where a position has no rows)."""
        best = np.full((self._positions(), len(queries)), -1.0, dtype=np.float32)
        if len(self.vectors) and self._runs is not None:
            starts, owners = self._runs
            rows = np.maximum.reduceat(self.vectors @ queries.T, starts, axis=0)
            best[owners] = np.maximum(rows, best[owners])
        elif len(self.vectors):
            np.maximum.at(best, self.owners, self.vectors @ queries.T)
        if self.base is not None:
            below = self.base._entry_cosines(queries).T
            best[: len(below)] = np.maximum(best[: len(below)], below)
        return best.T

    def _positions(self) -> int:
        own = int(self.owners.max()) + 1 if len(self.owners) else 0
        return max(own, self.base._positions() if self.base is not None else 0)

    def _similar_rows(self, query: Vectors, limit: int) -> list[tuple[int, float]]:
        if not len(self.vectors):
            return []
        rows = min(len(self.vectors), 4 * limit + 8)  # an entry has a few rows: enough for `limit`
        if self._basis is not None and self._reduced is not None:
            coarse = self._reduced @ (query @ self._basis)
            kept = np.argpartition(-coarse, PREFILTER_KEPT - 1)[:PREFILTER_KEPT]
            exact = self.vectors[kept] @ query
            order = np.argsort(-exact, kind="stable")[:rows]
            top, scores = kept[order], exact[order]
        else:
            every = self.vectors @ query
            top = np.argpartition(-every, rows - 1)[:rows]
            top = top[np.argsort(-every[top], kind="stable")]
            scores = every[top]
        best: dict[int, float] = {}
        for row, score in zip(top.tolist(), scores.tolist(), strict=True):
            owner = int(self.owners[row])
            if owner not in best:
                best[owner] = float(score)
                if len(best) == limit:
                    break
        return list(best.items())


def _principal_axes(vectors: Vectors, count: int) -> Vectors:
    """The `count` directions along which the vectors vary most (from a sample of them)."""
    step = max(1, len(vectors) // 20_000)
    sample = vectors[::step]
    _, _, axes = np.linalg.svd(sample - sample.mean(axis=0), full_matrices=False)
    basis: Vectors = np.ascontiguousarray(axes[:count].T, dtype=np.float32)
    return basis
