"""review75 (tests/outsider/PLAN.md, "review75"): an embedding cache file of the right layout
whose vectors are of another size (another model's, or a damaged file) is ignored, as a damaged
one is: it made every write of the cache raise ("all input arrays must have the same shape"),
so `define --data` (an operator's own glossary) ended in a traceback and a server's terms were
embedded a batch at a time, failing each time. Failed before."""

from __future__ import annotations

import fcntl
import logging
import threading
from pathlib import Path

import numpy as np
import pytest

from bot.search import similarity
from bot.search.semantic import term_vectors
from bot.search.semantic.term_vectors import TERM_CACHE_FILE, TermVectors
from bot.search.semantic.vectors import CACHE_FILE, KEY_BYTES, embed_entries, read_vectors
from bot.search.similarity import where_named
from tests.search.conftest import make_entry
from tests.search.test_term_vector_cache import HashEncoder


def _foreign(folder: Path, name: str, keys: list[bytes], shape: tuple[int, ...]) -> None:
    """A cache file of `keys` whose vectors have `shape` (HashEncoder's are 4 long)."""
    array = np.frombuffer(b"".join(keys), np.uint8).reshape(len(keys), KEY_BYTES)
    np.savez(folder / name, keys=array, vectors=np.ones(shape, np.float16))


OTHER_KEYS = [bytes([n]) * KEY_BYTES for n in range(2)]


@pytest.mark.parametrize("shape", [(2, 8), (2,), (2, 4, 2)], ids=["wider", "flat", "3d"])
def test_server_terms_embed_and_save_beside_a_cache_of_another_size(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, shape: tuple[int, ...]
) -> None:
    _foreign(tmp_path, TERM_CACHE_FILE, OTHER_KEYS, shape)
    vectors = TermVectors(HashEncoder(), tmp_path)
    with caplog.at_level(logging.WARNING):
        assert vectors.embed(["a server's term", "another of its terms"]) == 2
        vectors.save()
    assert "ignoring the unreadable embedding cache" in caplog.text, caplog.text
    restarted = TermVectors(HashEncoder(), tmp_path)
    assert restarted.missing(["a server's term", "another of its terms"]) == []
    assert all(v.shape == (4,) for v in read_vectors(tmp_path, TERM_CACHE_FILE).values())


def test_a_cached_vector_of_another_size_under_a_text_s_key_is_embedded_again(
    tmp_path: Path,
) -> None:
    encoder = HashEncoder()
    vectors = TermVectors(encoder, tmp_path)
    _foreign(tmp_path, TERM_CACHE_FILE, [vectors.key("a server's term")], (1, 8))
    assert vectors.missing(["a server's term"]) == ["a server's term"]


def test_entries_embed_beside_an_entry_cache_of_another_size(tmp_path: Path) -> None:
    encoder = HashEncoder()
    entries = [make_entry("zorb", "Zorb", "A made-up thing for a test of the cache.")]
    _foreign(tmp_path, CACHE_FILE, OTHER_KEYS, (2, 8))
    found, _, embedded = embed_entries(entries, encoder, tmp_path)
    assert found.shape == (1, 4)
    assert embedded == 1
    # written in this encoder's size, and read back at the next start
    assert embed_entries(entries, HashEncoder(), tmp_path)[2] == 0


@pytest.mark.parametrize("before", ["", "İ", "İzmir İstanbul İİİ "])
def test_where_named_says_where_in_the_text_given(before: str) -> None:
    """`where_named` (mend74: the part of a long question a footer quotes) found its run in
    `text.lower()`, which is longer than `text` where "İ" stands (it lowers to "i" and a dot
    above): the span it gave was of another string, shifted by one a dotted capital I before
    the name, and the footer quoted what followed the name, or cut it away. Failed before."""
    text = f"what is {before}" + "a" * 95 + " kv cahce and why is it used so much"
    start, end = where_named(text, ["KV Cache", "kv cache"]) or (0, 0)
    assert text[start:end] == "kv cahce", text[start:end]


def test_a_write_waits_for_another_process_s_lock_a_while_not_for_ever(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """product74's lock on the term vectors' file was waited for without end: a holder that
    never lets go (a paused container sharing the folder, a process stopped mid-write) held
    `embed` (the one embedding thread: every server's new terms) and the stop's last write
    (the interpreter waits for it at exit). Past LOCK_WAIT it writes unlocked, as where no lock
    can be made, and says so. Failed before (still waiting at the bound)."""
    monkeypatch.setattr(term_vectors, "LOCK_WAIT", 0.0)
    holder = (tmp_path / f"{TERM_CACHE_FILE}.lock").open("a")
    fcntl.flock(holder, fcntl.LOCK_EX)  # another open file: another holder, as a process is
    vectors = TermVectors(HashEncoder(), tmp_path)
    embedding = threading.Thread(target=vectors.embed, args=(["a server's term"],), daemon=True)
    with caplog.at_level(logging.WARNING):
        embedding.start()
        embedding.join(timeout=60)  # a bound on a hang, not a speed check
    assert not embedding.is_alive()
    holder.close()
    assert "writing the server terms' vectors without it" in caplog.text, caplog.text
    assert TermVectors(HashEncoder(), tmp_path).missing(["a server's term"]) == []


def test_where_named_aligns_a_bounded_amount_of_a_term_s_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A server term may hold thousands of long names (an import file). The footer of its card
    for a 4,000-character mention aligned every one against the whole text, on the event loop:
    2,000 names of 100 characters took 2 s (review75). The work is bounded now, the title tried
    first; counted here, not timed. Failed before (all 2,001 aligned)."""
    aligned: list[int] = []
    real = similarity.fuzz.partial_ratio_alignment

    def counted(name: str, text: str, **cutoff: float) -> object:
        aligned.append(len(name) * len(text))
        return real(name, text, **cutoff)

    monkeypatch.setattr(similarity.fuzz, "partial_ratio_alignment", counted)
    text = "what is the zorbquux engien " + "and how does it work " * 190
    names = ["Zorbquux Engine", *(f"{n:04} " + "qwerty uiop " * 8 for n in range(2000))]
    start, end = where_named(text, names) or (0, 0)
    assert "zorbquux engie" in text[start:end], text[start:end]  # the name's length: "engie"
    assert sum(aligned) <= similarity.WHERE_NAMED_WORK, (len(aligned), sum(aligned))
