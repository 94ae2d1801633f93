"""review63 (tests/outsider/PLAN.md, "Attacks on this session's product changes (review63)"):
attacks on this session's product changes; each test failed on integ 98aa97a5 first."""

from __future__ import annotations

from bot.sizes import said_size, said_sizes
from bot.term_import import too_big


def test_a_size_just_under_a_unit_is_said_in_the_next() -> None:
    """left56's one wording is "MiB to two decimals, whole KiB, bytes": rounded to whole KiB,
    1,048,500 bytes read "1024 KiB", a wording said nowhere else, and a file of that size
    against a server's lowered 512 KiB cap was "1024 KiB; an import is at most 512 KiB".
    Rounded first, it is 1 MiB; and one byte is a byte."""
    assert too_big("terms.toml", 1_048_500, 512 * 2**10) == (
        "terms.toml is 1 MiB; an import is at most 512 KiB"
    )
    assert said_size(2**20 - 1) == "1 MiB"
    assert said_size(1023.6) == "1 KiB"
    assert said_size(1) == "1 byte"
    assert said_size(0) == "0 bytes"
    # Beside the limit they now read alike: in bytes, as left56's rule says.
    assert said_sizes(2**20 - 1, 2**20) == ["1,048,575 bytes", "1,048,576 bytes"]
