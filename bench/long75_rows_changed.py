"""The what-if of `SearchIndex._asked_outright_carded` (task long75), through bench/step_whatif.py:
a long message's short clause asking outright what a name is, anywhere in it, opens the name's
card where the whole text opens none. It acts only on texts of `OUTRIGHT_CHARS` or more as typed
that write "what", so only those rows are searched with and without it.

    OPENBLAS_NUM_THREADS=1 python bench/long75_rows_changed.py [--slices ...]
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.step_whatif import main
from bot.search.index import OUTRIGHT_CHARS

MAY_TOUCH = re.compile(rf"(?s)^(?=.{{{OUTRIGHT_CHARS},}})(?=.*\bwhat)")

if __name__ == "__main__":
    main("_asked_outright_carded", MAY_TOUCH)
