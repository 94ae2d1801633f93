"""A failed write of the embedding cache leaves no temporary file behind (review56 found a full
disk leaving one partial `tmp*.npz` per failed write, up to 37 MB each, for good)."""

from __future__ import annotations

import errno
from pathlib import Path

import numpy as np
import pytest

from bot.search.semantic import vectors
from bot.search.semantic.vectors import KEY_BYTES, read_vectors, write_vectors


def _cached(count: int) -> dict[bytes, np.ndarray]:
    rng = np.random.default_rng(7)
    return {
        bytes([n % 256]) * KEY_BYTES: rng.standard_normal(8).astype(np.float32)
        for n in range(count)
    }


def test_a_write_that_fails_part_way_leaves_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_savez = np.savez

    def disk_full(file, **arrays):  # type: ignore[no-untyped-def]
        file.write(b"PK\x03\x04 half a zip")  # what a full disk leaves: a partial file
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(vectors.np, "savez", disk_full)
    assert write_vectors(tmp_path, _cached(4), quiet=True) is False
    assert write_vectors(tmp_path, _cached(4), quiet=True) is False
    assert sorted(p.name for p in tmp_path.iterdir()) == []

    monkeypatch.setattr(vectors.np, "savez", real_savez)
    assert write_vectors(tmp_path, _cached(4), quiet=True) is True
    assert sorted(p.name for p in tmp_path.iterdir()) == [vectors.CACHE_FILE]
    assert len(read_vectors(tmp_path)) == 4
