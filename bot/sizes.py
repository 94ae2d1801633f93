"""Sizes and counts in words, said one way to users and operators alike: "4.98 MiB", "597 KiB",
"800 bytes"; sizes said side by side that would read alike ("1 MiB; at most 1 MiB") in bytes;
"1 alias", "1,000 lookups"."""

from __future__ import annotations

KIB, MIB = 2**10, 2**20


def said_size(size: int | float) -> str:
    """`size` bytes in words: MiB to two decimals (no trailing zeros), whole KiB, or bytes;
    rounded before the unit is chosen (1,048,500 bytes is "1 MiB", not "1024 KiB")."""
    if round(size / KIB) >= KIB:
        return f"{size / MIB:.2f}".rstrip("0").rstrip(".") + " MiB"
    if round(size) >= KIB:
        return f"{size / KIB:.0f} KiB"
    return "1 byte" if round(size) == 1 else f"{size:,.0f} bytes"


def said_sizes(*sizes: int) -> list[str]:
    """Sizes said side by side (a file and its limit, a server's text now and with a change):
    each `said_size`, unless two that differ would read alike: then all in bytes."""
    said = [said_size(size) for size in sizes]
    if len(set(said)) < len(set(sizes)):
        return [f"{size:,} bytes" for size in sizes]
    return said


def said_count(number: int, one: str, many: str | None = None) -> str:
    """A count with its noun in the right number: "1 definition", "1,000 lookups" (`many`
    where adding an s is wrong: "1 entry", "2 entries")."""
    return f"{number:,} {one if number == 1 else many or one + 's'}"
