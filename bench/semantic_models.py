"""Compare embedding models and entry scorings for the semantic stage, on the blind set's dev
slice (the slice tuned on), the model alone (no lexical stages, no thresholds).

    python bench/semantic_models.py [--static DIR]   # DIR: from tools/distill_static.py

Rows: the shipped int8 MiniLM run with numpy; the static model2vec distillation of it (needs the
`export` extra); each with entry texts only or with the curated asked-as phrasings, an entry
scored by its best vector ("max") or by the mean of its description's and its best phrasing's
("blend"). Columns: top-1 and top-3 rate per kind, and the query time.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.glossary import load_glossary  # noqa: E402
from bot.glossary.models import Entry  # noqa: E402
from bot.search.relevance import load_cases  # noqa: E402
from bot.search.semantic.encoder import Encoder  # noqa: E402
from bot.search.semantic.vectors import entry_texts  # noqa: E402

Embed = Callable[[Sequence[str]], np.ndarray]


def rates(
    entries: Sequence[Entry], embed: Embed, asked_as: bool, scoring: str, slice_: str
) -> dict[str, object]:
    texts, owners, first = [], [], []
    for position, entry in enumerate(entries):
        own = entry_texts(entry) if asked_as else entry_texts(entry)[:1]
        first.append(len(texts))
        texts.extend(own)
        owners.extend([position] * len(own))
    vectors = embed(texts)
    owner = np.array(owners)
    cases = [c for c in load_cases(ROOT / "tests/search/relevance_blind.tsv") if c.slice == slice_]
    cases = [c for c in cases if c.expected]
    start = time.perf_counter()
    queries = embed([c.query for c in cases])
    per_query = (time.perf_counter() - start) / max(len(cases), 1) * 1000
    ids = [e.id for e in entries]
    out: dict[str, object] = {"ms/query": round(per_query, 2)}
    for kind in ("description", "question"):
        top1 = top3 = total = 0
        for case, q in zip(cases, queries, strict=True):
            if case.kind != kind:
                continue
            sims = vectors @ q
            best = np.full(len(entries), -1.0)
            np.maximum.at(best, owner, sims)
            if scoring == "blend":
                description = sims[first]
                best = np.where(best > description, (best + description) / 2, description)
            order = np.argsort(-best)[:3]
            top1 += case.accepts(ids[order[0]])
            top3 += any(case.accepts(ids[i]) for i in order)
            total += 1
        out[kind] = f"{top1 / total:.1%} / {top3 / total:.1%}"
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--static", type=Path, help="a model2vec model folder")
    parser.add_argument("--slice", default="dev")
    args = parser.parse_args()
    entries = list(load_glossary())
    encoder = Encoder()
    models: dict[str, Embed] = {"minilm-int8-numpy": lambda t: encoder.encode(t)}
    if args.static:
        from model2vec import StaticModel

        static = StaticModel.from_pretrained(str(args.static))
        models["model2vec-static-256"] = lambda t: static.encode(list(t), normalize=True)
    print("model | asked-as | scoring | description top-1 / top-3 | question top-1 / top-3 | ms")
    for name, embed in models.items():
        for asked_as, scoring in ((False, "max"), (True, "max"), (True, "blend")):
            r = rates(entries, embed, asked_as, scoring, args.slice)
            print(
                f"{name} | {'yes' if asked_as else 'no'} | {scoring} | {r['description']} | "
                f"{r['question']} | {r['ms/query']}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
