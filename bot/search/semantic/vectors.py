"""Entry vectors for the semantic stage, and the disk cache that spares re-embedding them.

Each entry is embedded as one text (title, summary, definition) plus one vector per "asked as"
phrasing (how people describe it without its name); an entry's similarity to a query is the best
over its vectors. The cache is keyed by the hash of the model and of each text, so an unchanged
glossary starts without embedding anything and a changed entry re-embeds only its own texts.
"""

from __future__ import annotations

import hashlib
import logging
import tempfile
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import numpy as np
import numpy.typing as npt

# Re-exported where they were first defined.
from bot.cachedir import CACHE_ENV as CACHE_ENV
from bot.cachedir import default_cache_dir as default_cache_dir
from bot.glossary.models import Entry

log = logging.getLogger(__name__)

CACHE_FILE = "entry-vectors.npz"
# The bundled glossary's vectors as shipped (tools/seed_vectors.py): a first start of a fresh
# install embeds only what changed since they were made, not the whole glossary.
SEED_DIR = Path(__file__).resolve().parent / "model"
KEY_BYTES = 16
MIN_KEPT = 50_000  # cached vectors kept beyond the current glossary's
Vectors = npt.NDArray[np.float32]


class TextEncoder(Protocol):
    @property
    def fingerprint(self) -> str: ...

    @property
    def dimensions(self) -> int: ...

    def encode(self, texts: Sequence[str]) -> Vectors: ...

    def encode_query(self, text: str) -> Vectors: ...

    def encode_queries(
        self,
        texts: Sequence[str],
        max_tokens: int = ...,
        fit: bool = False,
        uncut: Sequence[str] = (),
    ) -> Vectors: ...


def entry_texts(entry: Entry) -> list[str]:
    """The texts embedded for one entry: its description first, then each asked-as phrasing."""
    return [description_text(entry), *entry.asked_as]


def description_text(entry: Entry) -> str:
    """An entry's title, summary and definition, as one text to embed."""
    return " ".join(t for t in (f"{entry.display_title}.", entry.summary, entry.definition) if t)


def embed_entries(
    entries: Sequence[Entry], encoder: TextEncoder, cache_dir: Path | None
) -> tuple[Vectors, npt.NDArray[np.int32], int]:
    """Vectors of every entry's texts (rows), the entry position of each row, and how many
    texts had to be embedded (0 when the cache held them all)."""
    texts: list[str] = []
    owners: list[int] = []
    for position, entry in enumerate(entries):
        for text in entry_texts(entry):
            texts.append(text)
            owners.append(position)
    keys = [text_key(encoder.fingerprint, t) for t in texts]
    size = encoder.dimensions
    cached = {
        **read_vectors(SEED_DIR, dimensions=size),
        **(read_vectors(cache_dir, dimensions=size) if cache_dir else {}),
    }
    missing = [i for i, k in enumerate(keys) if k not in cached]
    vectors = np.zeros((len(texts), encoder.dimensions), dtype=np.float32)
    for i, key in enumerate(keys):
        if key in cached:
            vectors[i] = cached[key]
    if missing:
        # Rounded as the cache stores them: a first start answers as every later one will.
        fresh = encoder.encode([texts[i] for i in missing]).astype(np.float16)
        vectors[missing] = fresh
        if cache_dir:
            current = {k: vectors[i] for i, k in enumerate(keys)}
            kept = max(2 * len(current), MIN_KEPT)  # other glossaries may share the folder
            older = [(k, v) for k, v in cached.items() if k not in current]
            write_vectors(cache_dir, {**current, **dict(older[: kept - len(current)])})
    return vectors, np.asarray(owners, dtype=np.int32), len(missing)


def text_key(fingerprint: str, text: str) -> bytes:
    """The cache key of one text's vector: the model's and the text's hash."""
    return hashlib.sha256(fingerprint.encode() + text.encode("utf-8")).digest()[:KEY_BYTES]


def read_vectors(
    cache_dir: Path, name: str = CACHE_FILE, dimensions: int | None = None
) -> dict[bytes, Vectors]:
    """Vectors by key from a cache file; {} (and a warning) when it is missing or unreadable,
    or its vectors are not `dimensions` long (another model's: mixed with this one's, every
    write of the cache failed, review75)."""
    path = cache_dir / name
    try:
        if not path.is_file():
            return {}
        with np.load(path) as data:
            keys, vectors = data["keys"], data["vectors"].astype(np.float32)
        if keys.ndim != 2 or keys.shape[1] != KEY_BYTES or len(keys) != len(vectors):
            raise ValueError("not this version's layout")
        if vectors.ndim != 2 or dimensions not in (None, vectors.shape[1]):
            raise ValueError("not this model's vectors")
    except OSError as exc:
        log.warning("ignoring the unreadable embedding cache %s (%s): re-embedding", path, exc)
        return {}
    # A file cut short, emptied or of another kind under the name: numpy's own words for these
    # (e.g. to load it "unsafely" with allow_pickle) are no advice for a damaged cache.
    except (ValueError, KeyError, EOFError, TypeError, zipfile.BadZipFile):
        log.warning(
            "ignoring the unreadable embedding cache %s (damaged, or not this model's cache): "
            "re-embedding",
            path,
        )
        return {}
    return {k.tobytes(): v for k, v in zip(keys, vectors, strict=True)}


def write_vectors(
    cache_dir: Path, cached: dict[bytes, Vectors], name: str = CACHE_FILE, *, quiet: bool = False
) -> bool:
    """Vectors by key, in the cache's format (tools/seed_vectors.py ships one); False if the
    folder is not writable (said in a warning unless `quiet`). Written to a temporary file and
    renamed, so a reader never sees half a cache."""
    written: Path | None = None
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        # Raw bytes, not numpy's "S16": that would drop a key's trailing zero bytes.
        keys = np.frombuffer(b"".join(cached), dtype=np.uint8).reshape(len(cached), KEY_BYTES)
        vectors = np.stack(list(cached.values())).astype(np.float16)
        with tempfile.NamedTemporaryFile(dir=cache_dir, suffix=".npz", delete=False) as handle:
            written = Path(handle.name)
            np.savez(handle, keys=keys, vectors=vectors)
        written.replace(cache_dir / name)
    except OSError as exc:
        # A full disk or a file-size limit would otherwise leave each failed write's partial
        # file (up to tens of MB) in the cache folder for good.
        if written is not None:
            written.unlink(missing_ok=True)
        if not quiet:
            log.warning(
                "cannot write the embedding cache in %s (%s): set %s", cache_dir, exc, CACHE_ENV
            )
        return False
    return True
