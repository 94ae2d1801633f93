"""The what-if of `SearchIndex._remedy_carded` (task fix74), through bench/step_whatif.py: the
step acts only where the text asks for a remedy (`query.asks_remedy`), so only the rows writing
one of its remedy words are searched with and without it."""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.step_whatif import main

MAY_TOUCH = re.compile(
    r"\b(?:fix|stop|avoid|prevent|rid|deal|speed|trick|workaround|remedy|cure)\b"
)

if __name__ == "__main__":
    main("_remedy_carded", MAY_TOUCH)
