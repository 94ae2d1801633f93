"""Review of the last merges (tests/outsider/PLAN.md, "Review of the last merges (review46)")."""

from __future__ import annotations

import re

from bot.discord_app import runner


def _named(name: str) -> set[int]:
    """The shards a holder name says its process runs (a cut list: those it shows)."""
    found = re.search(r"shards (\S+?)…? pid", name)
    if found is None:
        return set()
    shards: set[int] = set()
    for part in found.group(1).strip(",-").split(","):
        low, _, high = part.partition("-")
        shards.update(range(int(low), int(high or low) + 1))
    return shards


def test_a_cut_holder_name_names_no_shard_the_process_does_not_run() -> None:
    """Attack 3: where the room left after pid and host was shorter than the first range, the
    range was cut inside a number: shards 100-999 on a 22-byte host read "shards 10…", 0-149
    on a 23-byte one "shards 0-1…": shards another process may run, named as this one's."""
    for ids in (range(150), range(100, 1000), range(7, 1000, 2), [12345, 12346, 99999]):
        for length in range(1, 64):
            name = runner.holder_name(ids, 4194304, "h" * length)
            assert len(name.encode()) <= runner.HOLDER_BYTES, name
            assert _named(name) <= set(ids), (length, name)
