"""Command-line start-up: CPU time of each command against bare `python -c pass`, same run.

    .venv/bin/python bench/startup_bench.py [--runs 9]

Each command runs `--runs` times in a fresh process, interleaved with the baseline so that load
on a shared machine touches both alike; a command's figure is its median CPU time (user + sys,
from the child's rusage) and its ratio to the baseline's median. Caches (entry vectors, the
parsed glossary) live in a fresh directory, filled by one run before measuring, as they are
after a first use; that run also writes the bot's bytecode, as installing it does. `check` uses
no cache: it reads and checks every file each time. The "first use" row runs `define` with an
empty cache each time. Commands run as users run them, through the `glossary-bot` script installed
beside this Python (`python -m bot.cli` where there is none: about the same, runpy adds <1%).
The issue's targets: `--help` and `check` well under 0.2 s (0.15 s here), `define` (a name) under
0.3 s. The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "python -c pass"
COMMANDS: dict[str, list[str]] = {
    "--help": ["--help"],
    "check -q": ["check", "-q"],
    "define kv cache": ["define", "kv", "cache"],
    # A description: no name settles it, so the semantic stage is built (vectors from the cache).
    "define (a description)": ["define", "the", "memory", "of", "past", "keys", "and", "values"],
    "define kv cache, first use": ["define", "kv", "cache"],
}
FIRST_USE = {"define kv cache, first use"}  # each run with an empty cache
# "Well under 0.2 s" for `--help` and `check` taken as 0.15 s (CPU, a quiet machine).
TARGETS = {"--help": 0.15, "check -q": 0.15, "define kv cache": 0.3}


def cpu_time(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one run of `argv` to completion."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    python = sys.executable
    script = Path(python).with_name("glossary-bot")
    command_line = [str(script)] if script.is_file() else [python, "-m", "bot.cli"]
    argvs = {BASELINE: [python, "-c", "pass"]}
    argvs.update({name: [*command_line, *command] for name, command in COMMANDS.items()})
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in argvs}
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "GLOSSARY_CACHE_DIR": cache}
        # Fills the caches as a first use would, and writes the bytecode an install compiles
        # (even where PYTHONDONTWRITEBYTECODE is set: else every run would compile the bot anew).
        first_use = {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}
        for name in COMMANDS:
            cpu_time(argvs[name], first_use)
        for _ in range(args.runs):
            for name, argv in argvs.items():
                if name in FIRST_USE:
                    with tempfile.TemporaryDirectory() as empty:
                        samples[name].append(cpu_time(argv, {**env, "GLOSSARY_CACHE_DIR": empty}))
                else:
                    samples[name].append(cpu_time(argv, env))
    base = statistics.median(cpu for cpu, _ in samples[BASELINE])
    results: dict[str, dict[str, float]] = {}
    print(f"{'command':<26} {'CPU s':>7} {'x pass':>7} {'wall s':>7}")
    for name, runs in samples.items():
        cpu = statistics.median(c for c, _ in runs)
        wall = statistics.median(w for _, w in runs)
        ratio = cpu / base if base else 0.0
        results[name] = {
            "cpu_s": round(cpu, 3),
            "cpu_ratio": round(ratio, 1),
            "wall_s": round(wall, 3),
        }
        print(f"{name:<26} {cpu:7.3f} {ratio:7.1f} {wall:7.3f}")
    met = {name: results[name]["cpu_s"] < limit for name, limit in TARGETS.items()}
    ran = " ".join(Path(command_line[0]).name if i == 0 else a for i, a in enumerate(command_line))
    print(f"as `{ran} ...`; load average {os.getloadavg()[0]:.1f}; CPU-time targets met: {met}")
    print(json.dumps({"runs": args.runs, "as": ran, "results": results, "cpu_targets_met": met}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
