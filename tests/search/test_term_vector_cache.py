"""The term-vector cache's limit (left54, tests/outsider/PLAN.md "Leftovers (left54)"): past it,
the vectors least recently used are let go, not the first embedded. Failed on 0f33958d first."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from bot.search.semantic.term_vectors import TermVectors
from bot.search.semantic.vectors import Vectors

ROOT = Path(__file__).resolve().parents[2]


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


def test_processes_writing_the_file_at_once_keep_each_other_s_vectors(tmp_path: Path) -> None:
    """product74: two processes on one cache folder (shards, concurrent test runs) each wrote
    the vectors they held: one that wrote while the other embedded was overwritten, and its
    vectors embedded again at its next start. Failed before: the other's term missing from
    the file. Now each write keeps what the file holds that it lacks, and the writer takes
    those in at its next `embed` rather than embedding them."""
    theirs, mine_text = "the other process's term", "this process's term"
    other = TermVectors(HashEncoder(), tmp_path)
    assert other.missing([theirs]) == [theirs]  # both processes read the (empty) file first

    class Meanwhile(HashEncoder):
        def encode(self, texts: Sequence[str]) -> Vectors:
            if not self.texts:  # while this process embeds, the other writes the file
                assert other.embed([theirs]) == 1
            return super().encode(texts)

    encoder = Meanwhile()
    mine = TermVectors(encoder, tmp_path)
    assert mine.embed([mine_text]) == 1
    assert TermVectors(HashEncoder(), tmp_path).missing([theirs, mine_text]) == []
    assert mine.embed([theirs]) == 0  # read from the file, not embedded again
    assert encoder.texts == [mine_text]
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".npz"] == ["term-vectors.npz"]


# One process of the test below: embeds its own texts one at a time, saving after each.
WRITER = """
import sys
from pathlib import Path
from bot.search.semantic.term_vectors import TermVectors
from tests.search.test_term_vector_cache import HashEncoder
vectors = TermVectors(HashEncoder(), Path(sys.argv[1]))
for n in range(int(sys.argv[3])):
    vectors.embed([f"process {sys.argv[2]} term {n}"])
    vectors.save()
"""


def test_processes_started_at_once_lose_no_vector(tmp_path: Path) -> None:
    """Four processes (shards started together) embedding and writing one cache folder at the
    same time: every vector each embedded is in the file at the end."""
    processes, each = 4, 15
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    running = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path), str(p), str(each)], env=env)
        for p in range(processes)
    ]
    assert [process.wait(timeout=120) for process in running] == [0] * processes
    texts = [f"process {p} term {n}" for p in range(processes) for n in range(each)]
    assert TermVectors(HashEncoder(), tmp_path).missing(texts) == []
