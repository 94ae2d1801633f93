"""Hostile search input against ordinary queries, measured in the same run.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/hostile_bench.py [--lengths 100,300,2000,4000]
        [--families a,b]

A mention hands search the whole message (up to 4,000 characters); `/define` up to 100 and
`glossary-bot search` any line. Each hostile family (chat words only, stretched letters, typos of
names, foreign fillers, emoji/ZWJ/RTL/combining marks, markup nested in markup) is built at each
length and timed through `SearchIndex.search` and `SearchIndex.complete`; the baseline is ordinary
semantic queries (descriptions and questions, which reach the meaning stage). Each latency is a
query's best of three replays (the machine is shared). A family is a finding when it costs more
than ~10x the baseline's median, or when its time grows faster than its length. The last line is
one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from alias_bench import best_of  # noqa: E402  (bench/ is this script's folder; 3 rounds, ms)

from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402

ORDINARY = [
    "the cache that keeps attention keys and values between decoding steps",
    "how do you make a big model smaller without retraining it",
    "why does my loss go up after a few epochs",
    "what is it called when the model makes things up",
    "training a small model to copy a bigger one",
    "splitting text into pieces the model reads",
    "picking the next word at random from the top few",
    "adding documents from a search to the prompt",
    "what does temperature do when sampling",
    "low rank adapters for fine tuning",
    "the layer that normalises activations across features",
    "how does the model know the order of words",
]
CHAT = [
    "ngl",
    "tbh",
    "lol",
    "idk",
    "wat",
    "r",
    "u",
    "smh",
    "fr",
    "fr",
    "bruh",
    "lmao",
    "imo",
    "btw",
    "pls",
    "thx",
    "omg",
    "rn",
    "ikr",
]
FILLERS = [
    "hola",
    "bonjour",
    "hallo",
    "ciao",
    "salut",
    "oi",
    "merhaba",
    "privet",
    "konnichiwa",
    "namaste",
    "hej",
    "ahoj",
]
MARKS = ["😀", "👩\u200d💻", "\u200f", "\u202e", "e\u0301\u0302\u0303\u0304", "🏳️\u200d🌈", "\u2066"]


def fill(words: Sequence[str], length: int) -> str:
    out: list[str] = []
    size = 0
    i = 0
    while size < length:
        word = words[i % len(words)]
        out.append(word)
        size += len(word) + 1
        i += 1
    return " ".join(out)[:length]


def typo(word: str, i: int) -> str:
    if len(word) < 3:
        return word + "x"
    j = 1 + i % (len(word) - 2)
    return word[:j] + word[j + 1] + word[j] + word[j + 2 :]


def families(index: SearchIndex, length: int) -> dict[str, str]:
    titles = [e.title.lower() for e in index.entries]
    typos = [typo(t.split()[0], i) for i, t in enumerate(titles)]
    names = " ".join(titles)
    return {
        "chat words": fill(CHAT, length),
        "stretched letters": "wh" + "a" * max(length - 3, 1) + "t",
        "stretched words": fill(["whaaaaaaaat", "sooooo", "loooool", "ragggg"], length),
        "typos of names": fill(typos, length),
        "names": names[:length],
        "foreign fillers": fill(FILLERS, length),
        "emoji zwj rtl combining": fill(MARKS, length),
        "zalgo": ("r" + "\u0301" * (length // 3)) + "ag",
        "nested markup": ("||**> `" * length)[: length - 3] + "rag",
        "fences": ("```py\n" * length)[: length - 3] + "rag",
        "question of chat": ("wat r " + fill(CHAT + typos[:50], length))[:length] + "?",
        "openers": ("ok so, " * length)[: length - 4] + " rag",
        "greetings and preambles": ("hey guys, new here, sorry dumb q but " * length)[:length]
        + "rag",
        "foreign question words": ("que es " * length)[:length] + "rag",
        "tag questions": ("rag, right " * length)[:length] + "?",
        "comparisons": ("rag vs lora vs " * length)[:length],
        "kya hai": ("rag kya hai " * length)[:length],
        "commas and guesses": (", dokcer?" * length)[:length],
        # patterns opening "\s*" are tried at each space of a run (quadratic before chat's
        # `_RUN_START`); "epoch" and "a:" open a pasted log line (written45)
        "runs of spaces": ("rag:" + " " * length)[: length - 1] + "?",
        "a log line's spaces": ("Epoch 1:" + " " * length)[: length - 9] + "kya hai?",
        # product68's readings (review69): "X/Y which" and "X > Y?" read as vs
        # (`spelled_versus`), a misspelt long name inside a question (`_typed_alone`)
        "slashes": ("rag/" * length)[: length - 6] + " which",
        "greater-than signs": ("rag > " * length)[: length - 1] + "?",
        "names/names which": "/".join(typos)[: length - 6] + " which",
        "one slash long sides": fill(typos, length // 2 - 1)
        + "/"
        + fill(typos, length // 2)
        + " which",
        "one sign long sides": fill(typos, length // 2 - 2)
        + " > "
        + fill(typos, length // 2)
        + "?",
        "misspelt question": ("what is " + fill(typos, length))[: length - 1] + "?",
        "misspelt chat question": ("why is my " + fill(typos, length))[: length - 16]
        + " so high lol?",
        # last session's readings (review70): a scene set before the question
        # (`query.scene_only`), the place written first (`asked_in_setting`), a part asked of
        # a name (`query.part_setting`)
        "when clauses": ("when rag is slow " * length)[: length - 16] + " what is lora?",
        "when names": fill([f"when {t}" for t in titles], length - 14) + " what is lora?",
        "in a in b": ("in " + " in ".join(titles))[: length - 20] + " what is kv cache",
        "in rag in": ("in rag " * length)[: length - 20] + " what is kv cache",
        "which part of": ("which part of " * length)[: length - 4] + "rag?",
        "part words": fill([f"the stage of {t}" for t in titles], length - 1) + "?",
        "possessive parts": ("rag's " * length)[: length - 10] + "retriever?",
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lengths", default="100,300,2000,4000")
    parser.add_argument("--families", help="only these, comma-separated (default: all)")
    args = parser.parse_args()
    only = set(args.families.split(",")) if args.families else None
    lengths = [int(x) for x in args.lengths.split(",")]
    index = SearchIndex.build(load_glossary())
    index.search("warm up the model")
    base = statistics.median(best_of(index.search, ORDINARY))
    print(f"baseline (ordinary semantic queries): median {base:.2f} ms")
    report: dict[str, object] = {"baseline_ms": round(base, 2), "families": {}}
    findings: list[str] = []
    per_family: dict[str, dict[int, float]] = {}
    for length in lengths:
        for name, text in families(index, length).items():
            if only is not None and name not in only:
                continue
            search_ms = best_of(index.search, [text])[0]
            complete_ms = best_of(lambda q: index.autocomplete(q[:100]), [text])[0]
            per_family.setdefault(name, {})[length] = search_ms
            ratio = search_ms / base
            print(
                f"{name:24} {length:6} chars: search {search_ms:8.2f} ms ({ratio:6.1f}x)"
                f"  complete {complete_ms:6.2f} ms"
            )
            if ratio > 10:
                findings.append(f"{name} at {length}: {ratio:.1f}x")
    for name, times in per_family.items():
        short, long = min(times), max(times)
        growth = times[long] / max(times[short], 1e-3)
        if growth > 2 * long / short and times[long] > base:
            findings.append(f"{name}: {growth:.0f}x the time for {long / short:.0f}x the length")
    report["families"] = {
        n: {str(k): round(v, 2) for k, v in t.items()} for n, t in per_family.items()
    }
    report["findings"] = findings
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
