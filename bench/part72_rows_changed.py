"""The what-if of `SearchIndex._mechanism_setting_offered` (task part72), through
bench/step_whatif.py: the step acts only where the text writes "how does/do/did/can/would",
"this/that ... object/thing", "kind/type/sort of" or "part/bit/piece", so only the rows writing
one are searched with and without it."""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.step_whatif import main

MAY_TOUCH = re.compile(
    r"\bhow (?:does|do|did|can|would)\b|\b(?:object|thing)\b|\b(?:kind|type|sort) of\b"
    r"|\b(?:part|bit|piece)\b"
)

if __name__ == "__main__":
    main("_mechanism_setting_offered", MAY_TOUCH)
