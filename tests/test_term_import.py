"""`too_big`: the size refusal of a terms file, said in MiB unless that would read as the cap."""

from __future__ import annotations

from bot.term_import import too_big

MIB = 2**20


def test_the_cap_itself_passes_and_every_size_past_it_is_refused() -> None:
    assert too_big("a.toml", 0) is None
    assert too_big("a.toml", MIB) is None
    assert too_big("a.toml", MIB + 1) == (
        "a.toml is 1,048,577 bytes; an import is at most 1,048,576 bytes"
    )


def test_bytes_while_mib_would_round_to_the_cap_then_mib() -> None:
    # 1.005 MiB is 1,053,818.88 bytes: below it "1 MiB" would look like the cap.
    assert too_big("a.toml", 1_053_818) == (
        "a.toml is 1,053,818 bytes; an import is at most 1,048,576 bytes"
    )
    assert too_big("a.toml", 1_053_819) == "a.toml is 1.01 MiB; an import is at most 1 MiB"
    assert too_big("a.toml", 50 * MIB) == "a.toml is 50 MiB; an import is at most 1 MiB"
