"""`glossary-bot check --db` on a database of 10,000 server terms (five servers at the default
term cap, 2,000 each) against the same on one server's 2,000, in the same run: the time and the
peak memory of the command (a process each), and their ratios. Linear is about 5 in time; the
memory should stay near one server's (servers are checked one at a time).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/review73_check_db_bench.py [--repeat 2]

Each term: a made-up title, two other names, a related bundled id, a reference and a short
definition; one term in 100 holds a reference stored before `check` refused it, one in 100 a
name that is only a question's wording (what `check --db` lists). The last line is JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.glossary.server_terms import MAX_TERMS, ServerTerm  # noqa: E402
from bot.storage import Store  # noqa: E402
from bot.term_storage import TermChange, change_terms  # noqa: E402

LETTERS = "bcdfghjklmnpqrstvwxz"


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(LETTERS) + rng.choice("aeiou") for _ in range(3))


def _server(rng: random.Random, scope: int) -> list[ServerTerm]:
    terms, seen = [], set()
    while len(terms) < MAX_TERMS:
        title = f"{_word(rng).title()} {_word(rng)}"
        names = (f"{_word(rng)}{len(terms)}", f"{_word(rng)} {scope}x{len(terms)}")
        if title.casefold() in seen:
            continue
        seen.add(title.casefold())
        n = len(terms)
        terms.append(
            ServerTerm(
                id=f"s{scope}-{n}",
                title=title,
                definition=f"A made-up term of server {scope}.",
                category="Fundamentals",
                aliases=("what is",) if n % 100 == 1 else names,
                related=("rag",),
                reference="https://wiki/x" if n % 100 == 0 else f"https://example.org/{n}",
            )
        )
    return terms


async def _made(path: Path, servers: int) -> None:
    rng = random.Random(73)
    store = await Store.open(str(path), flush_interval=None)
    try:
        for scope in range(1, servers + 1):
            terms = tuple(_server(rng, scope))
            await change_terms(store, scope, lambda *_, t=terms: (TermChange(put=t), None), 1)
    finally:
        await store.close()


def _checked(path: Path) -> tuple[float, int, str, int]:
    """Seconds, peak resident KiB of the command, its last line and its warning lines."""
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
    command = [sys.executable, "-m", "bot", "check", "--db", str(path)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    took = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    lines = (done.stdout + done.stderr).strip().splitlines()
    # ru_maxrss of the children is the largest of any: each run's is read after a smaller one
    warned = sum("warning" in line for line in lines)
    return took, max(peak, before), lines[-1] if lines else "", warned


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    results: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as folder:
        paths = {n: Path(folder) / f"servers{n}.db" for n in (1, 5)}
        for n, path in paths.items():
            asyncio.run(_made(path, n))
        # the small one first, so its peak is its own (the children's peak only grows)
        for n, path in paths.items():
            runs = [_checked(path) for _ in range(args.repeat)]
            best = min(r[0] for r in runs)
            results[f"terms_{n * MAX_TERMS}"] = {
                "seconds": round(best, 2),
                "peak_kib": runs[-1][1],
                "said": runs[-1][2][:160],
                "warning_lines": runs[-1][3],
            }
            print(n * MAX_TERMS, "terms:", results[f"terms_{n * MAX_TERMS}"], flush=True)
    small: dict[str, float] = results[f"terms_{MAX_TERMS}"]  # type: ignore[assignment]
    big: dict[str, float] = results[f"terms_{5 * MAX_TERMS}"]  # type: ignore[assignment]
    results["time_ratio"] = round(big["seconds"] / small["seconds"], 2)
    results["memory_ratio"] = round(big["peak_kib"] / small["peak_kib"], 2)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
