"""The look-alike index of a server's names (`entry_lookalikes`, read by `/suggest` and
`/alias add`), at the caps, against the other per-server build (`compile_local`) in the same run.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/lookalike_bench.py [--repeat 3]

Three glossaries: the bundled one alone (the baseline), a server at its caps as round 8's tests
write it (2,000 terms of ~100-character titles, 1.95 MiB) and a server whose 2 MiB are names
(2,000 terms of ~12-character aliases). Each build's time is the best of `--repeat`, with
`lookalike_key`'s cache emptied first, as after a change of terms. The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.glossary import load_glossary  # noqa: E402
from bot.glossary.interchange import parse_import  # noqa: E402
from bot.glossary.lookalikes import entry_lookalikes, lookalike_key  # noqa: E402
from bot.glossary.server_terms import MAX_TERMS, MAX_TEXT_BYTES, ServerTerm  # noqa: E402
from bot.search.index import SearchIndex  # noqa: E402
from bot.search.local import compile_local  # noqa: E402
from tests.outsider.full_server import full_server_file  # noqa: E402

LETTERS = "abcdefghijklmnopqrstuvwxyz"


class Holder:
    """A fresh holder for each build: `entry_lookalikes` keeps one index per holder."""


def best(repeat: int, build: Callable[[], Any]) -> tuple[float, Any]:
    """The least time of `repeat` builds (ms), lookalike_key's cache emptied before each."""
    times, built = [], None
    for _ in range(repeat):
        lookalike_key.cache_clear()
        start = time.perf_counter()
        built = build()
        times.append((time.perf_counter() - start) * 1000)
    return min(times), built


def names_server(rng: random.Random) -> list[ServerTerm]:
    """2,000 terms whose text is short aliases, up to about 2 MiB in all."""
    per_term = (MAX_TEXT_BYTES // MAX_TERMS - 60) // 13
    terms = []
    for n in range(MAX_TERMS):
        aliases = tuple(
            f"{''.join(rng.choices(LETTERS, k=8))} {n:03d}"[:12] for _ in range(per_term)
        )
        terms.append(
            ServerTerm(
                id=f"named-{n:04d}",
                title=f"Named Term {n:04d}",
                definition="A term of many names.",
                category="Fundamentals",
                aliases=tuple(dict.fromkeys(aliases)),
            )
        )
    return terms


def measure(repeat: int) -> dict[str, Any]:
    glossary = load_glossary()
    base = SearchIndex.build(glossary)
    parsed, problems = parse_import(
        full_server_file(), "a.toml", glossary, max_bytes=2**30, max_terms=MAX_TERMS
    )
    if any(p.severity == "error" for p in problems):
        raise SystemExit("the generated terms do not check")
    servers: dict[str, Sequence[ServerTerm]] = {
        "full (2,000 long titles)": parsed,
        "names (2 MiB of aliases)": names_server(random.Random(42)),
    }
    out: dict[str, Any] = {}
    bundled_ms, _ = best(repeat, lambda: entry_lookalikes(Holder(), base.entries))
    bundled_names = sum(len(e.names) for e in base.entries)
    out["bundled"] = {"names": bundled_names, "lookalikes_ms": round(bundled_ms, 1)}
    print(f"bundled: {bundled_names} names, look-alike index {bundled_ms:.1f} ms")
    for label, terms in servers.items():
        compile_ms, local = best(repeat, lambda t=terms: compile_local(glossary, base, t, {}))
        entries = local.index.entries
        names = sum(len(e.names) for e in entries)
        alike_ms, _ = best(repeat, lambda e=entries: entry_lookalikes(Holder(), e))
        out[label] = {
            "names": names,
            "compile_local_ms": round(compile_ms, 1),
            "lookalikes_ms": round(alike_ms, 1),
            "lookalikes_vs_bundled": round(alike_ms / bundled_ms, 2),
            "lookalikes_vs_compile": round(alike_ms / compile_ms, 3),
        }
        print(
            f"{label}: {names} names, compile_local {compile_ms:.0f} ms (off the loop), "
            f"look-alike index {alike_ms:.0f} ms ({alike_ms / bundled_ms:.1f}x the bundled one's)"
        )
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.repeat)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
