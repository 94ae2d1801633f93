"""The check of a server's names against each other's readings (`mismatches.other_numbers`,
run off the loop when a changed server is compiled), at what the caps allow, against the same
check with names read as written (its cost before mend71 read them as search does) in the
same run.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/readings_bench.py [--repeat 3]

The caps: 2,000 terms (MAX_TERMS) and 2 MiB of text (MAX_TEXT_BYTES, a list's ", " counted),
a name at most 100 characters, other names at most 4,000 characters a term (the form's box).
The most names: 2 MiB of short distinct names, about 4 letters each (6 bytes with ", ") --
330,000 names, 165 a term; review72's shape, 81 names a term (162,000), beside it. Each is
checked four ways: names as written (the baseline), every name read (no readings kept), one
term's names changed with the others' readings kept from the check before (an edit), and
nothing changed with all kept. The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.glossary import load_glossary  # noqa: E402
from bot.glossary.server_terms import (  # noqa: E402
    MAX_TERMS,
    MAX_TEXT_BYTES,
    ServerTerm,
    as_written,
    text_size,
)
from bot.mismatches import NameReadings, other_numbers  # noqa: E402
from bot.search.query import read_alone  # noqa: E402

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def server(rng: random.Random, per_term: int, length: int) -> list[ServerTerm]:
    """2,000 terms of `per_term` distinct names of `length` letters each."""
    seen: set[str] = set()

    def name() -> str:
        while (made := "".join(rng.choices(LETTERS, k=length))) in seen:
            pass
        seen.add(made)
        return made

    return [
        ServerTerm(
            id=f"named-{n:04d}",
            title=f"Named {n:04d}",
            definition="A term of many names.",
            category="Fundamentals",
            aliases=tuple(name() for _ in range(per_term)),
        )
        for n in range(MAX_TERMS)
    ]


def best(repeat: int, run: Callable[[], Any]) -> float:
    """The least time of `repeat` runs, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def measure(repeat: int) -> dict[str, Any]:
    glossary = load_glossary()
    rng = random.Random(72)
    shapes = {"review72 (81 a term)": server(rng, 80, 6), "2 MiB of names": server(rng, 165, 4)}
    results: dict[str, Any] = {}
    for label, terms in shapes.items():
        size = sum(text_size(t) for t in terms)
        names = sum(len(t.names) for t in terms)
        edited = list(terms)
        edited[7] = edited[7].model_copy(update={"aliases": ("zorb ★", "the zorbs")})
        readings = NameReadings(read_alone)
        other_numbers(terms, glossary, readings)  # the check before, whose readings are kept

        def edit(readings: NameReadings = readings, edited: list[ServerTerm] = edited) -> None:
            kept = NameReadings(read_alone)
            kept.kept = dict(readings.kept)
            other_numbers(edited, glossary, kept)

        times = {
            "as written": best(repeat, lambda t=terms: other_numbers(t, glossary, as_written)),
            "all read": best(repeat, lambda t=terms: other_numbers(t, glossary, read_alone)),
            "one term edited": best(repeat, edit),
            "unchanged": best(repeat, lambda t=terms, r=readings: other_numbers(t, glossary, r)),
        }
        base = times["as written"]
        results[label] = {
            "terms": len(terms),
            "names": names,
            "bytes": size,
            "seconds": {k: round(v, 3) for k, v in times.items()},
            "ratio": {k: round(v / base, 2) for k, v in times.items()},
        }
        print(
            f"{label}: {names:,} names, {size / 2**20:.2f} MiB; "
            + ", ".join(f"{k} {v:.2f} s ({v / base:.2f}x)" for k, v in times.items()),
            flush=True,
        )
        if size > MAX_TEXT_BYTES:
            raise SystemExit(f"{label}: {size:,} bytes, past the cap")
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(json.dumps(measure(args.repeat)))


if __name__ == "__main__":
    main()
