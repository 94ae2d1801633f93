"""What a kept server holds, by shape, against `SERVER_CACHE_MB`'s estimate of it (`weight`).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/weight_bench.py [--servers 6] [--fit]

Each shape runs in a process of its own (a process's freed memory is reused by what comes
next, so shapes measured one after another in one process would read low): a real SQLite file
holds `--servers` + 1 servers of that shape, each its own terms (the definitions name the
server, so no two servers share a text); one `ServerCache` reads and indexes the first (a
warm-up: one-off allocations, global caches, the first read's transient peak), then the rest.

Measured: the process's RSS after `gc.collect()` and `malloc_trim(0)`, before and after the
measured servers, over their number. RSS, not tracemalloc, because the budget bounds what the
process holds: RSS counts pymalloc's pools and malloc's slack beside the bytes asked for, which
tracemalloc leaves out (and tracing every allocation slows indexing several-fold and adds its
own memory to RSS); `--traced` prints tracemalloc's count too, in another process each, as a
floor. The trim hands back what reads left free, so what stays is what the servers hold.

With vectors (`+v` shapes): the bundled index with its meaning stage, and the servers' texts
embedded before the measurement by a stand-in encoder (random unit vectors of the model's 384
dimensions: their memory is the model's, and the bench measures memory, not meaning) into the
cache's own `TermVectors`, so each server's stage takes its rows from there as a restarted bot
takes them from the cache file; the `TermVectors` copy (process-wide, bounded by MIN_KEPT) is
not counted.

Printed: per shape, measured MiB a server, the estimate (`weight`, this checkout's constants),
their ratio, how many such servers the default SERVER_CACHE_MB keeps; `--fit` least-squares
constants for the estimate's parts, fitted on the ratio (each shape weighed alike whatever its
size); `--fit-from FILE` fits a saved run again. The last line is JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import gc
import json
import os
import random
import subprocess
import sys
import tempfile
import tracemalloc
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.discord_app import alias_cache  # noqa: E402
from bot.discord_app.alias_cache import ServerCache  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.glossary.interchange import parse_import  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.local import compile_local  # noqa: E402
from bot.search.semantic.term_vectors import TermVectors  # noqa: E402
from bot.storage import AliasImport, Store  # noqa: E402
from bot.term_storage import TermChange, change_terms  # noqa: E402
from tests.outsider.full_server import WORDS  # noqa: E402

SEED = 53
FIRST = 5_300
DIMENSIONS = 384  # all-MiniLM-L6-v2's


@dataclass(frozen=True)
class Shape:
    terms: int = 0
    names: int = 1  # a term's names: its title and `names - 1` other names
    name_length: int = 40  # characters of each other name (the title is ~96)
    keywords: int = 0  # a term's keywords
    definition: int = 900  # characters
    aliases: int = 0  # the server's aliases (`/alias add`)
    alias_length: int = 100
    vectors: bool = False
    acronyms: bool = False
    most: int = 0  # servers measured at most (a heavy shape), if not 0
    least: int = 0  # and at least (a light one: RSS moves by pages, and so does malloc)
    fitted: bool = True  # False: a check of the fit, not fitted on


SHAPES = {
    # At the caps (scale50's and versions51's full server): 2,000 terms of 900 characters.
    "caps": Shape(terms=2000, aliases=1000),
    "caps+v": Shape(terms=2000, aliases=1000, vectors=True),
    # Many short terms (review58's 1,000 of one name, 0.40 M characters).
    "short": Shape(terms=1000, definition=300),
    "short+v": Shape(terms=1000, definition=300, vectors=True),
    "tiny": Shape(terms=2000, definition=20),
    "tiny+v": Shape(terms=2000, definition=20, vectors=True),
    # Many names a term (review58's 41 and 151).
    "names41": Shape(terms=1000, names=41, name_length=40, definition=100),
    "names151": Shape(terms=300, names=151, name_length=22, definition=100),
    "names41-short": Shape(terms=1000, names=41, name_length=10, definition=100),
    # Checks, not fitted on: a server whose 2 MiB are names of ten-odd characters (the
    # heaviest the caps allow), and one of a bit of everything.
    "names-caps": Shape(terms=2000, names=80, name_length=10, definition=20, most=2, fitted=False),
    "mixed+v": Shape(
        terms=600,
        names=8,
        name_length=24,
        keywords=12,
        definition=500,
        aliases=300,
        alias_length=30,
        vectors=True,
        acronyms=True,
        fitted=False,
    ),
    "keywords": Shape(terms=500, keywords=100, definition=300),
    "one": Shape(terms=1, definition=300, least=24),
    # Aliases and no terms: they share the bundled index.
    "aliases100": Shape(aliases=1000, least=24),
    "aliases12": Shape(aliases=1000, alias_length=12, least=24),
}


def word(rng: random.Random) -> str:
    return rng.choice(WORDS)


def terms_file(shape: Shape, rng: random.Random) -> bytes:
    """Curated TOML of the shape's terms (as `/term import` takes them)."""
    lines = []
    for n in range(shape.terms):
        title = f"Zorbic Procedure {n:04d} " + " ".join(rng.choices(WORDS, k=14))
        names = [
            f"{k:03d}{n:04d} {' '.join(rng.choices(WORDS, k=8))}"[: shape.name_length].strip()
            for k in range(shape.names - 1)
        ]
        keywords = [f"kw{n:04d}{k:03d}{word(rng)}" for k in range(shape.keywords)]
        words = " ".join(rng.choices(WORDS, k=2 + shape.definition // 4))
        definition = words[: shape.definition].rsplit(" ", 1)[0]
        lines += [
            "[[entries]]",
            f'id = "zorbic-{n:04d}"',
            f'title = "{title[:96].strip()}"',
            'category = "Fundamentals"',
            *([f'acronym = "ZQ{letters(n)}X"'] if shape.acronyms else []),
            f'definition = "The {definition}."',
        ]
        if names:
            lines.append("aliases = [" + ", ".join(f'"{a}"' for a in names) + "]")
        if keywords:
            lines.append("keywords = [" + ", ".join(f'"{k}"' for k in keywords) + "]")
        lines.append("")
    return "\n".join(lines).encode()


def letters(n: int) -> str:
    """n in capitals, base 26: an acronym of its own for each term."""
    out = ""
    while True:
        n, rest = divmod(n, 26)
        out = chr(ord("A") + rest) + out
        if not n:
            return out


# Queries each server is asked before it is measured: a kept server has been asked, and its
# index builds parts the first query that needs them (name trigrams for a typo, the full text
# for a description, …): measured without them, it held less than it does in the bot.
QUERIES = (
    "Zorbic Procedure 0001",
    "zorbik procedre 0002 ledger",
    "which procedure ships the cargo crate from the harbor dock",
    "what is a rota badge",
    "rag",
    "GPT-4",
)
LAZY = ("trigrams", "_short_by_letters", "fulltext", "_versioned_titles", "_language_model")


def asked(local: Any) -> None:
    """`local` asked as a kept server is, and every part its index builds on demand built."""
    for query in QUERIES:
        local.index.search(query, local.aliases)
    for part in LAZY:  # those the queries did not need, as some other query would
        getattr(local.index, part)


class RandomEncoder:
    """The model's dimensions and none of its meaning: what its vectors cost, cheaply."""

    fingerprint = "weight-bench"
    dimensions = DIMENSIONS

    def __init__(self) -> None:
        self.rng = np.random.default_rng(SEED)

    def encode(self, texts: Any) -> np.ndarray:
        rows = self.rng.standard_normal((len(texts), DIMENSIONS)).astype(np.float32)
        return rows / np.linalg.norm(rows, axis=1, keepdims=True)

    def encode_query(self, text: str) -> np.ndarray:
        return self.encode([text])[0]

    def encode_queries(self, texts: Any) -> np.ndarray:
        return self.encode(texts)


def settled_rss() -> int:
    """Bytes resident once collected garbage and free heap are handed back."""
    gc.collect()
    ctypes.CDLL("libc.so.6").malloc_trim(0)
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE")


async def one_shape(name: str, servers: int, traced: bool) -> dict[str, Any]:
    shape = SHAPES[name]
    servers = max(min(servers, shape.most or servers), shape.least)
    glossary = load_glossary()
    index = SearchIndex.build(glossary, semantic=shape.vectors)
    guilds = [FIRST + n for n in range(servers + 1)]  # the first: the warm-up
    rng = random.Random(SEED)
    parsed = []
    if shape.terms:
        parsed, problems = parse_import(
            terms_file(shape, rng), "a.toml", glossary, max_bytes=2**30, max_terms=shape.terms
        )
        errors = [str(p) for p in problems if p.severity == "error"]
        if errors:
            raise SystemExit(f"{name}: the generated terms do not check: {errors[:3]}")
    vectors = TermVectors(RandomEncoder(), None, kept=10**9) if shape.vectors else None
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.db"
        store = await Store.open(db, flush_interval=None)
        try:
            for guild in guilds:
                own = [
                    t.model_copy(update={"definition": f"{t.definition} G{guild}."}) for t in parsed
                ]
                if own:
                    await change_terms(
                        store, guild, lambda *_, own=own: (TermChange(put=tuple(own)), None), 1
                    )
                    if vectors is not None:  # into the cache, as a restarted bot finds them
                        throwaway = compile_local(glossary, index, own, {})
                        vectors.embed([text for _, text in throwaway.texts])
                        del throwaway
                ids = [t.id for t in own] or [entry.id for entry in glossary][:50]
                texts = {
                    f"{n:04d}{guild} {' '.join(rng.choices(WORDS, k=20))}"[: shape.alias_length]
                    for n in range(shape.aliases)
                }
                if texts:
                    await store.import_aliases(
                        [AliasImport(guild, t, t, ids[n % len(ids)]) for n, t in enumerate(texts)]
                    )
            del parsed, own
            cache = ServerCache(
                lambda: store, lambda: (glossary, index), read_timeout=600.0, max_mb=10**6
            )
            cache._term_vectors = vectors
            await cache.check()
            asked(await cache.embedded(guilds[0]))
            if traced:
                tracemalloc.start()
            before = tracemalloc.get_traced_memory()[0] if traced else settled_rss()
            for guild in guilds[1:]:
                local = await cache.embedded(guild)
                assert len(cache._servers[guild].local.terms) == shape.terms
                assert local.complete
                asked(local)
            gc.collect()
            after = tracemalloc.get_traced_memory()[0] if traced else settled_rss()
            estimate = sum(cache._servers[guild].weight for guild in guilds[1:])
            kept = cache._servers[guilds[-1]].local
            stored = await store.terms(guilds[-1])
            aliases = await store.aliases(guilds[-1])
            return {
                "shape": name,
                "measured": (after - before) / servers,
                "estimate": estimate / servers,
                # What the estimate may count (the last server's; all are alike): `--fit`'s.
                "counts": {
                    "server": 1 if stored else 0,
                    "terms": len(stored),
                    "names": sum(len(t.names) for t in kept.terms),
                    "name_characters": sum(len(n) for t in kept.terms for n in t.names),
                    "keywords": sum(len(t.keywords) for t in kept.terms),
                    "keyword_characters": sum(len(k) for t in kept.terms for k in t.keywords),
                    "characters": sum(len(row.id) + len(row.body) for row in stored),
                    "rows": len(kept.row_keys),
                    "aliases": len(aliases),
                    "alias_characters": sum(len(k) + len(v) for k, v in aliases.items()),
                },
            }
        finally:
            await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--servers", type=int, default=6)
    parser.add_argument("--shapes", default=",".join(SHAPES))
    parser.add_argument("--traced", action="store_true", help="tracemalloc's count too")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--fit", action="store_true")
    parser.add_argument("--fit-from", type=Path, help="fit a saved run's last line again")
    args = parser.parse_args()
    if args.fit_from:
        saved = json.loads([x for x in args.fit_from.read_text().splitlines() if x[:1] == "{"][-1])
        print(json.dumps(fit(saved["shapes"])))
        return
    if args.one:
        print(json.dumps(asyncio.run(one_shape(args.one, args.servers, args.traced))))
        return
    results = []
    for name in args.shapes.split(","):
        row = run(name, args.servers, traced=False)
        if args.traced:
            row["traced"] = run(name, args.servers, traced=True)["measured"]
        results.append(row)
        mib = 2**20
        print(
            f"{name:14} measured {row['measured'] / mib:6.2f} MiB  estimate "
            f"{row['estimate'] / mib:6.2f} MiB  estimate/measured "
            f"{row['estimate'] / row['measured']:.2f}"
            # How many of them SERVER_CACHE_MB's default keeps (README says so).
            + f"  default keeps {alias_cache.SERVER_CACHE_MB * mib // row['estimate']:.0f}"
            + (f"  traced {row['traced'] / mib:6.2f} MiB" if args.traced else ""),
            flush=True,
        )
    summary: dict[str, Any] = {"servers": args.servers, "shapes": results}
    ratios = [row["estimate"] / row["measured"] for row in results]
    summary["ratio_min"], summary["ratio_max"] = round(min(ratios), 2), round(max(ratios), 2)
    if args.fit:
        summary["fit"] = fit(results)
        print("fitted (bytes each):", summary["fit"], flush=True)
    print(json.dumps(summary))


# The estimate's parts for `--fit`: what any server with terms holds (the bundled index with
# them in), per term, per name (title, acronym, other names) and per character of a name, per
# keyword, per character of the stored terms (names' included), per vector row. The aliases'
# two constants are review56's, not fitted again (they hold: see the aliases shapes).
PARTS = ("server", "terms", "names", "name_characters", "keywords", "characters", "rows")


def fit(results: list[dict[str, Any]]) -> dict[str, float]:
    """Non-negative constants of PARTS minimising the estimate's relative error over the
    shapes with terms (each shape weighed alike, a small server as a large one): least
    squares on estimate / measured - 1, after the aliases' own estimate."""
    rows, targets = [], []
    for row in results:
        counts = row["counts"]
        if not counts["terms"] or not SHAPES[row["shape"]].fitted:
            continue
        aliases = (
            alias_cache.ALIAS_WEIGHT * counts["aliases"]
            + alias_cache.ALIAS_WEIGHT_PER_CHARACTER * counts["alias_characters"]
        )
        rows.append([counts[part] / row["measured"] for part in PARTS])
        targets.append(1 - aliases / row["measured"])
    constants = nnls(np.asarray(rows, dtype=float), np.asarray(targets, dtype=float))
    return {part: round(float(c), 1) for part, c in zip(PARTS, constants, strict=True)}


def nnls(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Least squares with every coefficient >= 0 (Lawson and Hanson's active set)."""
    scale = np.abs(a).max(axis=0)
    scale[scale == 0] = 1
    a = a / scale
    x = np.zeros(a.shape[1])
    free: list[int] = []
    for _ in range(10 * a.shape[1]):
        gradient = a.T @ (b - a @ x)
        candidates = [j for j in range(a.shape[1]) if j not in free and gradient[j] > 1e-12]
        if not candidates:
            break
        free.append(max(candidates, key=lambda j: gradient[j]))
        while True:
            z = np.zeros_like(x)
            z[free] = np.linalg.lstsq(a[:, free], b, rcond=None)[0]
            if all(z[j] > 0 for j in free):
                x = z
                break
            step = min(x[j] / (x[j] - z[j]) for j in free if z[j] <= 0)
            x = x + step * (z - x)
            free = [j for j in free if x[j] > 1e-12]
    return x / scale


def run(name: str, servers: int, *, traced: bool) -> dict[str, Any]:
    command = [sys.executable, __file__, "--one", name, "--servers", str(servers)]
    out = subprocess.run(
        command + (["--traced"] if traced else []), check=True, capture_output=True, text=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


if __name__ == "__main__":
    main()
