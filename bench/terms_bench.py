"""Server terms: import, export and card building at the server cap, next to tomllib alone.

    .venv/bin/python bench/terms_bench.py [--terms 2000]

The baseline is `tomllib.loads` of the same file: what reading it costs before any checking, so
the ratio says what the checks add. Hostile files are timed next to what tomllib alone would
spend on them (a smaller one, since unguarded it grows quadratically). Each figure is the best
of three runs (the machine is shared). The last line is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import tomllib
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.glossary import load_glossary  # noqa: E402
from bot.glossary.interchange import export_toml, parse_import  # noqa: E402
from bot.glossary.server_terms import server_glossary  # noqa: E402


def best_of(runs: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def unguarded(text: str) -> Callable[[], object]:
    def parse() -> object:
        try:
            return tomllib.loads(text)
        except (tomllib.TOMLDecodeError, RecursionError):
            return None

    return parse


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--terms", type=int, default=2000)
    args = parser.parse_args()
    bundled = load_glossary()
    text = "".join(
        f'[[entries]]\nid = "t{i}"\ntitle = "Term {i}"\naliases = ["t {i}", "term no. {i}"]\n'
        f'category = "Fundamentals"\ndefinition = "Definition {i}: {"some words " * 20}"\n'
        f'boundary = "Not term {i + 1}."\nrelated = ["t{(i + 1) % args.terms}", "KV cache"]\n'
        for i in range(args.terms)
    )
    data = text.encode()
    terms, problems = parse_import(data, "bench.toml", bundled)
    assert len(terms) == args.terms, problems[:3]
    figures = {
        "terms": args.terms,
        "file_kib": round(len(data) / 1024),
        "tomllib_s": best_of(3, unguarded(text)),
        "import_s": best_of(3, lambda: parse_import(data, "bench.toml", bundled)),
        "export_s": best_of(3, lambda: export_toml(terms)),
        "server_glossary_s": best_of(3, lambda: server_glossary(bundled, terms)),
    }
    figures["import_vs_tomllib"] = figures["import_s"] / figures["tomllib_s"]
    bombs = {
        "dotted_key": lambda n: "[a" + ".a" * n + "]\n",
        "tables": lambda n: "".join(f"[a{i}]\n" for i in range(n)),
    }
    for name, make in bombs.items():
        small = make(20_000)  # what tomllib alone spends on a fifth of the bomb
        big = ("[[entries]]\n" + make(100_000)).encode()[: 2**20]
        figures[f"{name}_unguarded_20k_s"] = best_of(1, unguarded(small))
        figures[f"{name}_refused_s"] = best_of(3, lambda b=big: parse_import(b, "b.toml", bundled))
    for key, value in figures.items():
        print(f"{key:>28}: {value:.3f}" if isinstance(value, float) else f"{key:>28}: {value}")
    print(json.dumps({k: round(v, 4) if isinstance(v, float) else v for k, v in figures.items()}))


if __name__ == "__main__":
    main()
