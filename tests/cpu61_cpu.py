"""Opt-in: where the suite's CPU goes (cpu61). Off unless CPU61_CPU_LOG names a file prefix.

With `CPU61_CPU_LOG=/tmp/cpu`, each pytest process (the controller and every xdist worker)
writes `/tmp/cpu.<worker>.jsonl`: one line per test with the CPU (user+sys, s) its process
spent in it and the CPU of the child processes reaped meanwhile (bot processes, `glossary-bot`
commands, anything a test started and waited for), setup and teardown included (so a module
fixture lands on its module's first test), plus one line for the process's start-up
(interpreter, pytest and plugins, conftest imports) and its collection. CPU, not wall: it holds
under another job's load. `python -m tests.cpu61_cpu /tmp/cpu` prints the table per file.
"""

from __future__ import annotations

import json
import os
import resource
import sys
from collections import defaultdict
from collections.abc import Generator
from pathlib import Path
from typing import Any, TextIO

import pytest

_PREFIX = os.environ.get("CPU61_CPU_LOG", "").strip()
_out: TextIO | None = None
_started = [0.0]


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def _write(record: dict[str, Any]) -> None:
    if _out is not None:
        _out.write(json.dumps(record) + "\n")
        _out.flush()


def pytest_configure(config: pytest.Config) -> None:
    global _out
    if not _PREFIX:
        return
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    _out = Path(f"{_PREFIX}.{worker}.jsonl").open("a", encoding="utf-8")  # noqa: SIM115
    _started[0] = _cpu(resource.RUSAGE_SELF)
    _write(
        {
            "kind": "start",
            "worker": worker,
            "self": _cpu(resource.RUSAGE_SELF),
            "children": _cpu(resource.RUSAGE_CHILDREN),
        }
    )


def pytest_collection_finish(session: pytest.Session) -> None:
    """Collection: from the start-up line to here (importing every test module)."""
    if _out is not None:
        _write({"kind": "collect", "self": _cpu(resource.RUSAGE_SELF) - _started[0]})


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, None, None]:
    if _out is None:
        yield
        return
    self_before = _cpu(resource.RUSAGE_SELF)
    children_before = _cpu(resource.RUSAGE_CHILDREN)
    yield
    _write(
        {
            "kind": "test",
            "nodeid": item.nodeid,
            "self": _cpu(resource.RUSAGE_SELF) - self_before,
            "children": _cpu(resource.RUSAGE_CHILDREN) - children_before,
        }
    )


def pytest_unconfigure(config: pytest.Config) -> None:
    if _out is not None:
        _write(
            {
                "kind": "end",
                "self": _cpu(resource.RUSAGE_SELF),
                "children": _cpu(resource.RUSAGE_CHILDREN),
            }
        )
        _out.close()


def table(prefix: str, top: int = 40) -> str:
    """Per file: CPU in the worker, in its children, tests, and the costliest test."""
    files: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    costliest: dict[str, tuple[float, str]] = {}
    start = collect = end = 0.0
    workers = 0
    for path in sorted(Path(prefix).parent.glob(Path(prefix).name + ".*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if record["kind"] == "start":
                start += record["self"]
                workers += 1
            elif record["kind"] == "collect":
                collect += record["self"]
            elif record["kind"] == "end":
                if path.name.endswith(".main.jsonl"):  # the controller, its workers reaped
                    end = record["self"] + record["children"]
            else:
                name = record["nodeid"].split("::")[0]
                total = record["self"] + record["children"]
                row = files[name]
                row[0] += record["self"]
                row[1] += record["children"]
                row[2] += 1
                if total > costliest.get(name, (0.0, ""))[0]:
                    costliest[name] = (total, record["nodeid"].split("::", 1)[-1])
    in_tests = sum(row[0] + row[1] for row in files.values())
    lines = [
        f"processes {workers}: start-up {start:.1f} s, collection {collect:.1f} s, "
        f"tests {in_tests:.1f} s, all processes (the controller and its children) {end:.1f} s",
        "| CPU s | worker s | children s | tests | file | costliest test (s) |",
        "|---:|---:|---:|---:|---|---|",
    ]
    ranked = sorted(files.items(), key=lambda kv: -(kv[1][0] + kv[1][1]))
    for name, (own, children, count) in ranked[:top]:
        cost, test = costliest[name]
        lines.append(
            f"| {own + children:.1f} | {own:.1f} | {children:.1f} | {count:.0f} | {name} "
            f"| {test[:60]} ({cost:.1f}) |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    print(table(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 40))
