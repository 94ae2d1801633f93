"""Every regular expression of the bot's own modules against hostile texts, measured in the
same run against a linear baseline.

    .venv/bin/python bench/regex_bench.py [--lengths 1000,4000] [--top 15]

Users' messages reach search's patterns (up to 4,000 characters), imported files the readers'
(up to the import's size cap). A pattern tried at each position that reads far on each (two
runs of one class side by side, a run before an optional group that can fail) is quadratic on
a text of what it runs over: product70's TOML dotted-key guard took 6 s on 20,000 spaces. Each
module-level pattern (and those in its module-level tuples, lists and dicts) is used as its
module calls it (match, fullmatch, search, sub/findall; searched and substituted when the calls
are not written beside its name) over texts of one short unit repeated (spaces, tabs, letters, brackets, quotes,
"ok so, ", markup marks ...) at each length; its growth is the time at the longest over the
time at the shortest, against the baseline's (a plain literal search over the same texts). A
pattern is a finding when its growth is more than twice the length's ratio and its time at the
longest length is over 1 ms. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import re
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bot  # noqa: E402

UNITS = [
    " ", "\t", "\n", " \n", "a", "a ", "ab", "a.", "a-", "a_", "1", "1.", "1,", ", ", ". ",
    "ok so, ", "rag ", "what ", "is ", "[", "[[", "]", "[a", "[a](", "(", "{", "=", "a = ",
    "'", '"', "`", "```", "*", "**", "_", "~", "|", "||", "> ", "#", "# ", "-", "- ", "<",
    "<@", "@", ":", "::", "/", "\\", "\\n", "%", "&", "é", "e\u0301", "😀", "\u200b", "\r\n",
]  # fmt: skip


SLOW_MS = 50.0  # at the shorter length: a finding without the longer one


def patterns() -> Iterator[tuple[str, re.Pattern[str], set[str]]]:
    """(where, pattern, the methods its module calls on it) for every str pattern held at module
    level in the bot's modules (also in module-level tuples, lists and dicts: their methods
    unknown, so searched and substituted)."""
    seen: set[int] = set()
    for module_info in pkgutil.walk_packages(bot.__path__, "bot."):
        if module_info.name.rsplit(".", 1)[-1] == "__main__":
            continue
        module = importlib.import_module(module_info.name)
        source = Path(module.__file__ or "").read_text("utf-8")
        for name, value in vars(module).items():
            held = value.values() if isinstance(value, dict) else value
            found = [value] if isinstance(value, re.Pattern) else []
            if isinstance(held, (tuple, list)) or isinstance(value, dict):
                for item in held:
                    found += [x for x in (item if isinstance(item, tuple) else (item,))
                              if isinstance(x, re.Pattern)]  # fmt: skip
            called = set(re.findall(rf"\b{re.escape(name)}\.(\w+)\(", source))
            for pattern in found:
                if id(pattern) not in seen and isinstance(pattern.pattern, str):
                    seen.add(id(pattern))
                    yield f"{module_info.name}.{name}", pattern, called


def best_ms(run: Callable[[], object], rounds: int = 3) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def cost(pattern: re.Pattern[str], called: set[str], text: str) -> float:
    """The pattern used as its module uses it over `text` (searched and substituted when that
    is not known): an anchored `match` reads from the start only, a `search` from each place."""
    uses: list[Callable[[], object]] = []
    if "match" in called:
        uses.append(lambda: pattern.match(text))
    if "fullmatch" in called:
        uses.append(lambda: pattern.fullmatch(text))
    if "search" in called:
        uses.append(lambda: pattern.search(text))
    if called & {"sub", "subn", "findall", "finditer", "split"}:
        uses.append(lambda: pattern.findall(text))
    if not uses:
        uses = [lambda: pattern.search(text), lambda: pattern.findall(text)]
    return sum(best_ms(use, 2) for use in uses)


FILE_UNITS = {
    "toml": [" ", "\t", "\n", "#", "# a note\n", "[", "[[", "=", "a.", '"', "'", "{", "a = 1\n"],
    "md": [" ", "\n", "#", "# a\n", "¶", "a¶\n", "*", "-", "[", "|", "`", "> "],
    "json": [" ", "[", "{", '"', '{"a":', "\\", "1,"],
}  # fmt: skip


def file_costs(sizes: tuple[int, int]) -> list[tuple[str, float, float]]:
    """(format and unit, ms at the smaller size, ms at the larger) of an import of a file of
    one unit repeated: the readers' own patterns as the import runs them."""
    from bot.glossary import load_glossary
    from bot.glossary.interchange import parse_import

    bundled = load_glossary()
    rows = []
    for suffix, units in FILE_UNITS.items():
        for unit in units:
            data = [(unit * (size // len(unit) + 1))[:size].encode() for size in sizes]
            small, large = (
                best_ms(lambda d=d, s=suffix: parse_import(d, f"ours.{s}", bundled, max_bytes=1 << 30), 2)
                for d in data
            )  # fmt: skip
            rows.append((f"{suffix} {unit!r}", small, large))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lengths", default="1000,4000")
    parser.add_argument("--top", type=int, default=15, help="the slowest patterns printed")
    parser.add_argument(
        "--file-sizes",
        default="262144,1048576",
        type=lambda text: [int(x) for x in text.split(",")] if text else [],
        help="import files of these two sizes (bytes; the import's least cap is 1 MiB); '' skips",
    )
    parser.add_argument("--patterns", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--verbose", action="store_true", help="each pattern as it is measured")
    args = parser.parse_args()
    short, long = (int(x) for x in args.lengths.split(","))
    texts = {
        u: ((u * (long // len(u) + 1))[:short], (u * (long // len(u) + 1))[:long]) for u in UNITS
    }
    literal = re.compile("zq!")
    base = {u: (cost(literal, set(), s), cost(literal, set(), t)) for u, (s, t) in texts.items()}
    base_growth = max(t / max(s, 1e-4) for s, t in base.values())
    base_ms = max(t for _, t in base.values())
    print(
        f"baseline (a literal over each text): {base_ms:.3f} ms at {long}, growth {base_growth:.1f}x"
    )
    rows = []
    count = 0
    for where, pattern, called in patterns() if args.patterns else ():
        count += 1
        worst = (0.0, 0.0, "")
        for unit, (s, t) in texts.items():
            at_short = cost(pattern, called, s)
            if at_short < 0.05:  # linear or not, nothing to measure at the longer length
                continue
            # Seconds already at the shorter length: the longer, 16x on a quadratic, is not
            # waited for (its caller's guard, if any, is read by hand)
            at_long = cost(pattern, called, t) if at_short < SLOW_MS else float("inf")
            if at_long > worst[1]:
                worst = (at_short, at_long, unit)
        rows.append((where, *worst))
        if args.verbose:
            print(f"{where:60} {worst[2]!r:12} {worst[0]:8.3f} -> {worst[1]:8.3f} ms", flush=True)
    rows.sort(key=lambda row: -row[2])
    ratio = long / short
    findings = [
        f"{where} on {unit!r}: {at_short:.0f} ms at {short} already"
        if at_long == float("inf")
        else f"{where} on {unit!r}: {at_long:.1f} ms at {long}, "
        f"{at_long / max(at_short, 1e-4):.0f}x for {ratio:.0f}x the length"
        for where, at_short, at_long, unit in rows
        if at_long > 1.0 and at_long / max(at_short, 1e-4) > 2 * ratio
    ]
    for where, at_short, at_long, unit in rows[: args.top]:
        growth = at_long / max(at_short, 1e-4)
        print(f"{where:60} {unit!r:12} {at_short:8.3f} -> {at_long:8.3f} ms ({growth:5.1f}x; "
              f"{at_long / max(base_ms, 1e-4):6.0f}x the baseline)")  # fmt: skip
    file_rows = file_costs((args.file_sizes[0], args.file_sizes[1])) if args.file_sizes else []
    file_ratio = args.file_sizes[1] / args.file_sizes[0] if args.file_sizes else 1
    for name, small, large in sorted(file_rows, key=lambda row: -row[2])[: args.top]:
        print(
            f"import {name:24} {small:9.2f} -> {large:9.2f} ms ({large / max(small, 1e-3):5.1f}x)"
        )
    findings += [
        f"import of {name}: {large:.0f} ms at {args.file_sizes[1]:,} bytes, "
        f"{large / max(small, 1e-3):.0f}x for {file_ratio:.0f}x the size"
        for name, small, large in file_rows
        if large > 10 and large / max(small, 1e-3) > 2 * file_ratio
    ]
    report = {
        "patterns": count,
        "lengths": [short, long],
        "baseline_ms": round(base_ms, 4),
        "slowest": {
            w: round(t, 3) if t != float("inf") else None for w, _, t, _ in rows[: args.top]
        },
        "findings": findings,
    }
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
