"""What finding the terms a message names costs (`find_mentions`, as Explain terms reads a
message: acronyms in any case, names of up to `ALL_WORDS` words, the server's aliases), this
checkout's function against a baseline's, in the same run.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/mentions_bench.py [--base COMMIT] [--rounds 5]

The baseline is bot/search/terms.py as of `--base` (`git show`, loaded beside this checkout's
`bot`, whose helpers it imports). Inputs, hostile and ordinary:
- 2,000 and 4,000 characters of "kv cache " against the bundled glossary with 1,000 server
  aliases of 100 characters (the caps) that all begin with "kv cache kv cache ...": with a tail
  no message writes (every other word widens across ~20 words and finds nothing) and with
  exact runs of the phrase too (a name found, the words it spans skipped);
- 4,000 characters of "a " against 1,000 aliases "a a a ..." of 100 characters with tails of
  their own (the most words an alias holds, each widened across at every word);
- the same "kv cache" messages against a server whose 18 terms are titled with 256 characters
  of it and have an alias of up to 4,000, each cut mid-word (flake63's sweep: 317 entries);
- ordinary text: every third tuning query, one by one and run together into chat-sized messages of
  about 300 characters, read as Explain terms and as `find_terms` (as typed, six words);
- one long name: a 100-character alias written alone.
A figure is the best CPU time (`process_time`) of `--rounds`, baseline and this checkout taking
turns case by case (the machine is shared). Both must find the same mentions (checked). The last
line is one JSON object: per case both times and their ratio (this checkout / baseline).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.glossary import load_glossary  # noqa: E402
from bot.glossary.models import Entry  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search import terms as current  # noqa: E402
from bot.search.relevance import load_cases  # noqa: E402
from bot.search.server_aliases import NO_ALIASES, ServerAliases  # noqa: E402

PHRASE = "kv cache "
Case = tuple[str, SearchIndex, ServerAliases, list[str], bool]


def baseline(commit: str) -> types.ModuleType:
    """bot/search/terms.py as of `commit`, as a module of its own."""
    source = subprocess.run(
        ["git", "show", f"{commit}:bot/search/terms.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    module = types.ModuleType("mentions_baseline")
    sys.modules[module.__name__] = module  # its dataclass looks itself up there
    exec(compile(source, f"{commit[:8]}:bot/search/terms.py", "exec"), module.__dict__)
    return module


def letter_aliases(index: SearchIndex) -> ServerAliases:
    """1,000 aliases of 100 characters, "a a a ..." with a tail of its own: the most words an
    alias can hold, each a word a message may write over and over."""
    ids = [e.id for e in index.entries]
    aliases = {("a " * 50)[:96].strip() + f" z{i}": ids[i % len(ids)] for i in range(1000)}
    return index.server_aliases(aliases)


def hostile_aliases(index: SearchIndex, exact_runs: bool) -> ServerAliases:
    """1,000 aliases of 100 characters, each "kv cache kv cache ..." with a tail of its own;
    with `exact_runs`, the first ten are whole runs of the phrase instead ("kv cache" to ten
    of them, each a name a message can write)."""
    ids = [e.id for e in index.entries]
    aliases: dict[str, str] = {}
    for i in range(1000):
        if exact_runs and i < 10:
            alias = (PHRASE * (i + 2)).strip()
        else:
            tail = f" z{i}"
            alias = (PHRASE * 12)[: 100 - len(tail)].rstrip() + tail
        aliases[alias] = ids[i % len(ids)]
    return index.server_aliases(aliases)


def long_titled(bundled: tuple[Entry, ...]) -> SearchIndex:
    """The bundled glossary and 18 server terms titled with up to 256 characters of the phrase
    and named by up to 4,000 of it, each cut elsewhere but always mid-word ("... kv ca"), so no
    run of the phrase is one: as the hostile sweep leaves a server (flake63: each option given
    its longest value)."""
    model = bundled[0]
    extra = [
        model.model_copy(
            update={
                "id": f"long-{n}",
                "title": (PHRASE * 40)[: 9 * (27 - n) + 5],  # "... kv ca": never whole
                "acronym": None,
                "aliases": ((PHRASE * 500)[: 9 * (440 - n * 23) + 5],),
                "match_terms": (),
            }
        )
        for n in range(18)
    ]
    return SearchIndex.build((*bundled, *extra), semantic=False)


def run_together(queries: list[str], size: int) -> list[str]:
    """The queries joined into messages of about `size` characters."""
    messages, held = [], ""
    for query in queries:
        held = f"{held} {query}." if held else f"{query}."
        if len(held) >= size:
            messages.append(held)
            held = ""
    return messages


def cpu(work: Callable[[], object]) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="a8a39543", help="commit whose terms.py is the baseline")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    old = baseline(args.base)
    bundled = tuple(load_glossary())
    index = SearchIndex.build(bundled, semantic=False)
    sys.path.insert(0, str(ROOT / "bench"))
    report = importlib.import_module("relevance_report")  # after bot: it imports this checkout's

    queries = [
        case.query
        for name in report.SETS
        for case in load_cases(ROOT / "tests/search" / name)
        if case.slice not in report.HELD_OUT and not case.slice.startswith("test")
    ]
    queries = queries[::3]  # a third of them (every third): enough to compare, quick to run
    chat = run_together(queries, 300)
    nomatch, runs = hostile_aliases(index, False), hostile_aliases(index, True)
    swept = long_titled(bundled)
    message = {n: (PHRASE * 1000)[:n] for n in (2000, 4000)}
    one_name = (PHRASE * 12)[:97].rstrip() + " z5"
    cases: list[Case] = [
        ("aliases_nomatch_2000", index, nomatch, [message[2000]], False),
        ("aliases_nomatch_4000", index, nomatch, [message[4000]], False),
        ("aliases_runs_2000", index, runs, [message[2000]], False),
        ("aliases_runs_4000", index, runs, [message[4000]], False),
        ("letters_4000", index, letter_aliases(index), [("a " * 2000)[:4000]], False),
        ("long_titles_2000", swept, NO_ALIASES, [message[2000]], False),
        ("long_titles_4000", swept, NO_ALIASES, [message[4000]], False),
        ("one_long_alias", index, nomatch, [one_name], False),
        ("queries_explain", index, NO_ALIASES, queries, False),
        ("queries_as_typed", index, NO_ALIASES, queries, True),
        ("chat_explain", index, NO_ALIASES, chat, False),
        ("chat_explain_aliases", index, runs, chat, False),
        ("chat_as_typed", index, NO_ALIASES, chat, True),
    ]
    figures: dict[str, dict[str, float]] = {}
    for name, searched, server, texts, as_typed in cases:
        words = current.MAX_WORDS if as_typed else current.ALL_WORDS

        def read(
            find: Callable[..., list[Any]],
            searched: SearchIndex = searched,
            server: ServerAliases = server,
            texts: list[str] = texts,
            as_typed: bool = as_typed,
            words: int = words,
        ) -> list[list[tuple[int, int, int]]]:
            return [
                [
                    (f.entry, f.start, f.end)
                    for f in find(
                        text,
                        searched.names,
                        searched.entries,
                        server,
                        None,
                        as_typed=as_typed,
                        max_words=words,
                    )
                ]
                for text in texts
            ]

        if read(old.find_mentions) != read(current.find_mentions):
            print(f"{name}: the two find different mentions", file=sys.stderr)
            return 1
        best = {"base_s": float("inf"), "this_s": float("inf")}
        for _ in range(args.rounds):
            best["base_s"] = min(best["base_s"], cpu(lambda: read(old.find_mentions)))
            best["this_s"] = min(best["this_s"], cpu(lambda: read(current.find_mentions)))
        best["ratio"] = best["this_s"] / best["base_s"] if best["base_s"] else 1.0
        figures[name] = best
        print(
            f"{name:24} {len(texts):5} texts  base {best['base_s'] * 1000:9.2f} ms"
            f"  this {best['this_s'] * 1000:9.2f} ms  ratio {best['ratio']:.3f}",
            flush=True,
        )
    print(json.dumps({"base": args.base, "rounds": args.rounds, "cases": figures}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
