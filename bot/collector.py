"""Python's cyclic garbage collector and what lives on: paused while a build allocates what will
all live on, and kept out of what a running bot built at start (`set_aside`)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while building: a build (loading the glossary, an
    index) allocates up to a million objects, none of them in cycles, and each full collection
    would walk everything built so far again (a tenth of `check`, of an index build at 100k)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def set_aside() -> None:
    """Leave what the process holds now out of the collector's full collections, until
    `take_back`. Called once the bot is connected: the modules, the glossary with its index and
    discord.py's cache of the servers live as long as the bot does, yet every full collection
    walked them all, holding the event loop (a flood's allocations set off a few: 0.3-0.9 s
    each on a loaded machine, the longest stalls left in bench/loop_lag_bench.py). Freed by
    reference counting as ever; only what dies in a reference cycle waits for `take_back`."""
    gc.freeze()


def take_back() -> None:
    """Give the collector back what `set_aside` left out: before what was set aside may die in
    cycles (a glossary reload drops the old one, whose entries are in cycles), and at a stop."""
    gc.unfreeze()
