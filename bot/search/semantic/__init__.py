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


class SemanticIndex:
    """Entry vectors (several rows per entry) and the encoder for queries. Immutable."""

    def __init__(
        self, vectors: Vectors, owners: npt.NDArray[np.int32], encoder: TextEncoder, embedded: int
    ) -> None:
        self.vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        self.owners = owners
        self.encoder = encoder
        self.embedded = embedded  # texts embedded at build (not found in the cache)

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
        vectors, owners, embedded = embed_entries(entries, encoder, cache_dir)
        return cls(vectors, owners, encoder, embedded)

    def similar(self, text: str, limit: int) -> list[tuple[int, float]]:
        """The `limit` entries most similar to `text`, best first, as (position, cosine)."""
        if not len(self.vectors):
            return []
        return self.similar_to(self.encoder.encode_query(text), limit)

    def similar_to(self, query: Vectors, limit: int) -> list[tuple[int, float]]:
        scores = self.vectors @ query
        rows = min(len(scores), 4 * limit + 8)  # an entry has a few rows: enough to fill `limit`
        top = np.argpartition(-scores, rows - 1)[:rows]
        top = top[np.argsort(-scores[top], kind="stable")]
        best: dict[int, float] = {}
        for row in top.tolist():
            owner = int(self.owners[row])
            if owner not in best:
                best[owner] = float(scores[row])
                if len(best) == limit:
                    break
        return list(best.items())
