"""Workarounds, for the test process only, of interpreter bugs that the suite can meet.

CPython 3.11 keeps the AST constructor's recursion depth in state shared by every thread
(python/cpython#106905): two threads turning source into an AST at once, pytest rewriting or
reporting in one while a bot thread formats a traceback in another (3.11's tracebacks parse
each line to place their carets), can end in "SystemError: AST constructor recursion depth
mismatch", failing whichever test was running. Here the bot and its fake Discord share pytest's
process, so every `ast.parse` is made one at a time. The bot's own process is left as it is:
there the worst case is one log line that logging reports it could not write.

The cyclic garbage collector is held off during a parse: a collection that starts inside one
runs finalizers on the same thread, and one that logs a traceback parses again. With a plain
lock that hung the suite (seen once in tests/storage); a nested parse would also upset the
shared depth the lock is there to protect. The lock is re-entrant all the same, so anything
else that nests a parse fails loudly rather than hanging CI."""

from __future__ import annotations

import ast
import gc
import sys
import threading
from typing import Any

_parsing = threading.RLock()


def parse_one_at_a_time() -> None:
    if sys.version_info >= (3, 12) or getattr(ast.parse, "one_at_a_time", False):
        return
    parse = ast.parse

    def locked_parse(*args: Any, **kwargs: Any) -> Any:
        with _parsing:
            collecting = gc.isenabled()
            gc.disable()
            try:
                return parse(*args, **kwargs)
            finally:
                if collecting:
                    gc.enable()

    locked_parse.one_at_a_time = True  # type: ignore[attr-defined]
    ast.parse = locked_parse  # type: ignore[assignment]
