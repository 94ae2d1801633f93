"""The what-if of `SearchIndex._asked_beside_named` (task names77), through bench/step_whatif.py:
the step reads "how does X work in Y" and its kin, "serve / train ... X with Y" and a short text
ending in "what is X", so only rows writing "what", "how ... in/on/with/for", "with / using / via"
or "on" are searched with and without it (a superset of the rows it can read)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.step_whatif import main

MAY_TOUCH = re.compile(
    r"what|\bhow\b.*\b(?:in|on|inside|within|with|for)\b|\b(?:with|using|via|on)\b"
)

if __name__ == "__main__":
    main("_asked_beside_named", MAY_TOUCH)
