"""Vectors of servers' own terms, by content hash, for every server of a process.

A server term is embedded when it is written, not when the bot starts: the discord layer hands
the texts that have no vector yet to `embed` in a thread of its own, a batch at a time, and swaps
each server's meaning layer as they arrive. Keys are the model's and the text's hash (as for the
bundled entries), so two servers with the same text share one vector, an unchanged term is never
embedded twice, and the cache file (`term-vectors.npz` beside the bundled entries' vectors)
spares a restart, or another bot process on the same database, embedding them again.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import numpy as np

from bot.search.semantic.vectors import (
    CACHE_ENV,
    MIN_KEPT,
    TextEncoder,
    Vectors,
    read_vectors,
    text_key,
    write_vectors,
)

log = logging.getLogger(__name__)

TERM_CACHE_FILE = "term-vectors.npz"
EMBED_BATCH = 16  # texts per call: a server's edit waits at most this much of another's import
# Seconds between two writes of the cache file while embedding goes on (`save` writes the rest
# when a server's embedding ends, and at a stop). The file holds every kept vector (37 MB at
# MIN_KEPT): written after each batch, an import of 2,000 terms wrote it 250 times (9 GB, a
# second of disk each time against a batch's two or three seconds of embedding).
SAVE_EVERY = 30.0
# Seconds a write waits for another process's lock on the cache file (a write takes a second or
# two): a holder that never lets go (a paused container, a process stopped mid-write) held this
# process's embedding, every server's, and its exit (review75). Past it, written unlocked.
LOCK_WAIT = 30.0
LOCK_POLL = 0.05


class TermVectors:
    """Known vectors by key, and the encoder that makes the missing ones. Thread-safe: lookups
    come from compiling threads while the embedding thread adds."""

    def __init__(self, encoder: TextEncoder, cache_dir: Path | None, *, kept: int = MIN_KEPT):
        self.encoder = encoder
        self.cache_dir = cache_dir
        self.kept = kept
        self._vectors: dict[bytes, Vectors] = {}
        self._lock = threading.Lock()
        self._loaded = False
        self._seen_mtime: float | None = None  # of the cache file when last read
        self._write_failed = False  # said once: the bot still answers from memory
        self.clock = time.monotonic
        self._saved_at: float | None = None  # when this process last wrote the cache file
        self._unsaved = False  # vectors embedded here that the cache file lacks

    def key(self, text: str) -> bytes:
        return text_key(self.encoder.fingerprint, text)

    def vectors(self, keys: Iterable[bytes]) -> dict[bytes, Vectors]:
        """The known vectors of these keys (read from the cache file on first use), each then
        the most recently used: a server read again and again keeps its vectors past the
        limit, where one idle since goes first (`_trim`)."""
        self._load_once()
        with self._lock:
            found = {k: v for k in keys if (v := self._vectors.pop(k, None)) is not None}
            self._vectors.update(found)
        return found

    def missing(self, texts: Iterable[str]) -> list[str]:
        """Those of `texts` with no vector yet, each once."""
        keyed = {self.key(t): t for t in texts}
        known = self.vectors(keyed)
        return [text for key, text in keyed.items() if key not in known]

    def embed(self, texts: Sequence[str], in_use: Iterable[Iterable[bytes]] = ()) -> int:
        """Embed those of `texts` not known yet (blocking: call it off the event loop) and save
        them in the cache; how many were embedded. Another process's new vectors are read
        first, so a term it embedded is not embedded here again. `in_use`: the keys of the
        servers held in memory now, let go last past the limit (`_trim`)."""
        in_use = [*in_use]  # read twice: by the merge of another process's, and below
        self._load_once()
        self._read_newer(in_use)
        todo = self.missing(texts)
        if not todo:
            return 0
        # Rounded as the cache stores them: a server answers the same before and after a restart.
        fresh = self.encoder.encode(todo).astype(np.float16).astype(np.float32)
        with self._lock:
            keys = [self.key(text) for text in todo]
            self._vectors.update(zip(keys, fresh, strict=True))
            self._trim([*in_use, keys])  # in use too: the stage waits for them
            self._unsaved = True
        self.save(at_once=False)
        return len(todo)

    @property
    def unsaved(self) -> bool:
        """Are vectors embedded here missing from the cache file?"""
        return self._unsaved

    def save(self, *, at_once: bool = True) -> None:
        """Write the cache file if it lacks vectors embedded here (blocking: off the event
        loop): `at_once`, or else when SAVE_EVERY has passed since the last write (the first
        write is at once)."""
        with self._lock:
            if not self._unsaved:
                return
            now = self.clock()
            if not at_once and self._saved_at is not None and now - self._saved_at < SAVE_EVERY:
                return
            self._unsaved, self._saved_at = False, now
            snapshot = dict(self._vectors)
        self._save(snapshot)

    # -- the cache file ------------------------------------------------------------------------

    def _load_once(self) -> None:
        if self._loaded:
            return
        with self._lock:
            if not self._loaded:
                self._merge(self._read())
                self._loaded = True

    def _read_newer(self, in_use: Iterable[Iterable[bytes]]) -> None:
        if self.cache_dir is not None and self._mtime() != self._seen_mtime:
            read = self._read()  # a second at the limit: lookups meanwhile need the lock
            with self._lock:
                self._merge(read, in_use)

    def _merge(self, read: dict[bytes, Vectors], in_use: Iterable[Iterable[bytes]] = ()) -> None:
        """Another process's vectors (or the file's at the first use) come in as the most
        recently used: past the limit the servers held here keep theirs all the same."""
        for key, vector in read.items():
            self._vectors.setdefault(key, vector)
        self._trim(in_use)

    def _trim(self, in_use: Iterable[Iterable[bytes]] = ()) -> None:
        """Past `kept`, the vectors least recently embedded or looked up go first (dicts keep
        insertion order; `vectors` moves what it finds to the end, and the cache file keeps
        the order), those `in_use` last: a server asked all day, read once at its start, keeps
        its vectors where one idle since goes."""
        over = len(self._vectors) - self.kept
        if over <= 0:
            return
        used = {key for keys in in_use for key in keys}
        unused = [key for key in self._vectors if key not in used]
        for key in [*unused, *(k for k in self._vectors if k in used)][:over]:
            del self._vectors[key]

    def _mtime(self) -> float | None:
        try:
            return (self.cache_dir / TERM_CACHE_FILE).stat().st_mtime if self.cache_dir else None
        except OSError:
            return None

    def _read(self) -> dict[bytes, Vectors]:
        if self.cache_dir is None:
            return {}
        self._seen_mtime = self._mtime()
        return self._read_file()

    def _read_file(self) -> dict[bytes, Vectors]:
        if self.cache_dir is None:
            return {}
        return read_vectors(self.cache_dir, TERM_CACHE_FILE, self.encoder.dimensions)

    def _save(self, vectors: dict[bytes, Vectors]) -> None:
        if self.cache_dir is None:
            return
        # Processes sharing the folder (shards, test runs) each wrote what they held: the last
        # write dropped what another had embedded since this one last read, embedded again at
        # its next start. One writer at a time now, each keeping the file's vectors it lacks.
        with _writing(self.cache_dir):
            seen = self._mtime() == self._seen_mtime
            if not seen:  # another process's, as `_merge` takes them in: the most recent
                vectors = {
                    **vectors,
                    **{k: v for k, v in self._read_file().items() if k not in vectors},
                }
                vectors = dict(list(vectors.items())[-self.kept :])
            saved = write_vectors(self.cache_dir, vectors, TERM_CACHE_FILE, quiet=True)
            if saved and seen:  # else left unseen: the next `embed` takes them in (`_read_newer`)
                self._seen_mtime = self._mtime()
        if not saved and not self._write_failed:
            self._write_failed = True
            log.warning(
                "cannot write server terms' vectors in %s: kept in memory, embedded again "
                "after a restart (set %s to a writable folder)",
                self.cache_dir,
                CACHE_ENV,
            )


@contextlib.contextmanager
def _writing(cache_dir: Path) -> Iterator[None]:
    """Held while this process reads and writes the cache file: another process's write waits
    (flock, let go by the kernel if its holder dies). A folder where the lock file cannot be
    made (read-only, a file system without locks) writes unlocked, as before."""
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        lock = (cache_dir / f"{TERM_CACHE_FILE}.lock").open("a")
    except OSError:
        yield
        return
    with lock:
        deadline = time.monotonic() + LOCK_WAIT
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if time.monotonic() < deadline:
                    time.sleep(LOCK_POLL)
                    continue
                log.warning(
                    "another process has held %s for %.0f s: writing the server terms' vectors "
                    "without it",
                    lock.name,
                    LOCK_WAIT,
                )
            except OSError:
                pass  # a file system without locks: unlocked, as before
            break
        yield  # closing the file lets the lock go
