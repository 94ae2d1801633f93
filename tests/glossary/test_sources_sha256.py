"""The sha256 that checks source files: CPython's own module under either of its names (3.11's
`_sha256`, 3.12's `_sha2`: the container runs 3.12), else hashlib's; always hashlib's digest."""

from __future__ import annotations

import hashlib
import sys

from bot.glossary import sources

SAMPLES = (b"", b"abc", "Zorblax \u2014 \u00e9t\u00e9\n".encode(), bytes(range(256)) * 1000)


def test_the_running_pythons_own_module_is_chosen() -> None:
    expected = "_sha256" if sys.version_info < (3, 12) else "_sha2"
    assert sources.sha256.__module__ == expected
    for data in SAMPLES:
        assert sources.sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()


def test_each_name_is_tried_in_turn_then_hashlib() -> None:
    here = "_sha256" if sys.version_info < (3, 12) else "_sha2"
    found = sources.builtin_sha256(("_no_such_sha_module", here))
    assert found.__module__ == here
    assert found is not hashlib.sha256
    fallback = sources.builtin_sha256(("_no_such_sha_module",))
    assert fallback is hashlib.sha256
    for sha256 in (found, fallback):
        for data in SAMPLES:
            assert sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()


def test_a_source_hash_ignores_the_bom_and_crlf() -> None:
    text = 'title = "Zorblax"\nsummary = "\u00e9t\u00e9"\n'
    digest = hashlib.sha256(text.encode()).hexdigest()
    assert sources.text_sha256(text.encode()) == digest
    assert sources.text_sha256(("\ufeff" + text.replace("\n", "\r\n")).encode()) == digest
