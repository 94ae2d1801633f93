"""The test process's ast.parse workaround must not hang when a collection nests a parse."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

# Run apart: a hang here would hold the lock every later parse in pytest's process needs.
NESTED_PARSE = """
import ast, gc
from tests.python_bugs import parse_one_at_a_time

parse_one_at_a_time()
nested = []

def on_collection(phase, info):
    # What a finalizer that logs a traceback does: 3.11 parses the line to place carets.
    if phase == "start":
        ast.parse("x = 1")
        nested.append(phase)

source = "\\n".join(f"def f{i}(a, b):\\n    return [a, b, {{'k': (a, b)}}]" for i in range(3000))
gc.callbacks.append(on_collection)
gc.set_threshold(1)
ast.parse(source)
gc.collect()
print("parsed; nested parses:", len(nested))
"""


def test_a_collection_during_a_parse_does_not_hang_it() -> None:
    root = Path(__file__).resolve().parent.parent
    try:
        done = subprocess.run(
            [sys.executable, "-c", NESTED_PARSE],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=120,
        )
    except subprocess.TimeoutExpired:
        raise AssertionError("ast.parse hung on a collection that parses again") from None
    assert done.returncode == 0, done.stderr
    # The collection's own parse still ran, once the outer parse had ended.
    assert done.stdout.startswith("parsed; nested parses:"), done.stdout
    assert not done.stdout.strip().endswith(": 0"), done.stdout
