"""The term-vector cache's limit (left54, tests/outsider/PLAN.md "Leftovers (left54)"): past it,
the vectors least recently used are let go, not the first embedded. Failed on 0f33958d first."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from bot.search.semantic.term_vectors import TermVectors
from bot.search.semantic.vectors import Vectors


class HashEncoder:
    """A stand-in encoder: each text's vector from its hash (the model is not what is tested)."""

    fingerprint = "hash-encoder"
    dimensions = 4

    def __init__(self) -> None:
        self.texts: list[str] = []

    def encode(self, texts: Sequence[str]) -> Vectors:
        self.texts.extend(texts)
        return np.array(
            [np.frombuffer(hashlib.sha256(t.encode()).digest()[:4], np.uint8) for t in texts],
            dtype=np.float32,
        )

    def encode_query(self, text: str) -> Vectors:
        return self.encode([text])[0]


BUSY = ["busy server's term", "busy server's other term"]
IDLE = ["idle server's term", "idle server's other term"]
NEW = ["a new server's term", "a new server's other term"]


def test_a_busy_servers_vectors_outlive_an_idle_servers(tmp_path: Path) -> None:
    """The cache kept the newest-embedded vectors: a busy server embedded first, read again
    and again since (each read looks its vectors up), lost them to an idle server's embedded
    later, and embedded them again at its next read; the idle one's stayed. Now a lookup
    counts as a use: the idle server's are let go first, also across a restart (the file
    keeps the order)."""
    encoder = HashEncoder()
    vectors = TermVectors(encoder, tmp_path, kept=4)
    vectors.embed(BUSY)
    vectors.embed(IDLE)
    assert len(vectors.vectors(map(vectors.key, BUSY))) == 2  # the busy server read again
    vectors.embed(NEW)  # past the limit: two are let go
    assert vectors.missing(BUSY + IDLE + NEW) == IDLE
    vectors.save()
    restarted = TermVectors(encoder, tmp_path, kept=4)
    assert restarted.missing(BUSY + IDLE + NEW) == IDLE
    restarted.vectors(map(restarted.key, BUSY))
    restarted.embed(IDLE)  # the idle server comes back: the new one, least recently used, goes
    assert restarted.missing(BUSY + IDLE + NEW) == NEW


def test_the_servers_held_keep_their_vectors_and_a_batch_its_own(tmp_path: Path) -> None:
    """The servers held in memory (`in_use`, the keys of their meaning stages) keep their
    vectors past the limit, looked up lately or not; a batch's own vectors are in use too (its
    stage waits for them: let go at once, they would be embedded again and again)."""
    vectors = TermVectors(HashEncoder(), tmp_path, kept=4)
    busy = [vectors.key(t) for t in BUSY]
    vectors.embed(BUSY)
    vectors.embed(IDLE)
    vectors.embed(NEW, in_use=[busy])
    assert vectors.missing(BUSY + IDLE + NEW) == IDLE
    more = ["one more term", "one more other term"]
    vectors.embed(more, in_use=[busy, [vectors.key(t) for t in NEW]])  # all four in use
    assert vectors.missing(BUSY + NEW + more) == BUSY  # the least recently used of them


def test_another_processs_vectors_read_in_do_not_push_out_the_servers_held(
    tmp_path: Path,
) -> None:
    """review62: `embed` reads another process's newer vectors from the shared cache file
    first, and that merge trimmed to the limit with no servers held: what it read came in as
    the most recently used, so a busy server held here lost its vectors to the other
    process's (embedded again after a restart). Now the merge keeps the servers held too."""
    encoder = HashEncoder()
    here = TermVectors(encoder, tmp_path, kept=4)
    busy = [here.key(t) for t in BUSY]
    here.embed(BUSY)
    here.embed(IDLE, in_use=[busy])
    here.save()
    other = TermVectors(encoder, tmp_path, kept=4)
    other.embed(["another process's term", "another process's other term"])
    other.save()
    here.embed(NEW, in_use=[busy])
    assert here.vectors(busy).keys() == set(busy)
