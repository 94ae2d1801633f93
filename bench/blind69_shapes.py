"""dev23 and test31 (relevance_blind49.md / 50.md) by shape: totals only.

    OPENBLAS_NUM_THREADS=1 python bench/blind69_shapes.py [--misses]

Statements (kind description) split into "d tagged" (ending in ", right", ", i think",
", isn't it" or "lol") and "d plain". Questions take blind68_shapes.py's shapes (compares,
misspelt, names, names nothing), with "q names nothing" split once more: "q names another"
when the question writes another entry's name as context (its title or id as a phrase, or the
initials of a title of three words or more; one-word names only when they are not everyday words
such as token, loss or context), else "q names nothing". Off-topic comparisons ("X vs Y", "X or
Y ...") are counted in their own slice, `<slice>/vs`. The rule is approximate. test31 is held
out: its shapes' totals are printed, never its rows; --misses lists dev23's only.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from blind68_shapes import STOPWORDS, names_of, shape  # noqa: E402

from bench.slice_shapes import print_by_shape  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.relevance import Case  # noqa: E402

SETS = ("relevance_blind49.tsv", "relevance_blind50.tsv")
TUNING = {"dev23"}
TAG = re.compile(r"(, right|, i think|, isn't it|\blol)$")
OFF_COMPARES = re.compile(r"\b(vs|or)\b")
# One-word names that are everyday words: writing them is not naming that entry.
EVERYDAY = {
    "alignment", "attention", "checkpoint", "chunking", "context", "dataset", "decode",
    "decontamination", "embeddings", "epoch", "gate", "guardrails", "hallucination",
    "jailbreak", "latency", "layer", "liveness", "loss", "neuron", "observability", "optimizer",
    "overfitting", "parameter", "perplexity", "prefill", "python", "quantization", "reranking",
    "rubric", "sampling", "sandbox", "scheduler", "seed", "step", "superposition", "temperature",
    "tensor", "throughput", "token", "tokenization", "training", "transformers", "watermarking",
    "weights",
}  # fmt: skip


def phrase(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def other_names(entry_id: str, title: str) -> set[str]:
    """The phrases that name an entry when another entry is asked about."""
    said = {phrase(title), phrase(entry_id.replace("-", " "))}
    parts = [w for w in re.split(r"[\s\-()&]+", title.lower()) if w and w not in STOPWORDS]
    if len(parts) >= 3:
        said.add("".join(w[0] for w in parts))
    return {p for p in said if p and (" " in p or p not in EVERYDAY)}


def reshape(case: Case, names: dict[str, set[str]], named_as: dict[str, set[str]]) -> Case:
    if case.expected is None:
        compared = bool(OFF_COMPARES.search(case.query))
        return replace(case, slice=f"{case.slice}/vs") if compared else case
    if case.kind == "description":
        return replace(case, kind="d tagged" if TAG.search(case.query) else "d plain")
    kind = shape(case, names)
    if kind == "q names nothing":
        said = f" {phrase(case.query)} "
        others = (
            other
            for other, phrases in named_as.items()
            if other != case.expected and any(f" {p} " in said for p in phrases)
        )
        kind = "q names another" if next(others, None) else kind
    return replace(case, kind=kind)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--misses", action="store_true", help="list dev23's misses by shape")
    args = parser.parse_args()
    glossary = load_glossary()
    names = names_of(glossary)
    named_as = {entry.id: other_names(entry.id, entry.title) for entry in glossary}
    index = SearchIndex.build(glossary)

    def shaped(_: str, cases: list[Case]) -> list[Case]:
        return [reshape(case, names, named_as) for case in cases]

    print_by_shape(index, SETS, shaped, TUNING, args.misses)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
