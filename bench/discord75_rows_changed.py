"""The what-if of `SearchIndex._platform_noun_offered` (task discord75), through
bench/step_whatif.py: the step acts only where the text writes one of Discord's nouns
(`platform_words.PLATFORM_NOUNS`: "embed", "webhook", "intents" ...), so only the rows writing one
are searched with and without it.

    OPENBLAS_NUM_THREADS=1 python bench/discord75_rows_changed.py [--slices ...]
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.step_whatif import main
from bot.search.platform_words import PLATFORM_NOUNS

MAY_TOUCH = re.compile(r"\b(?:" + "|".join(sorted(PLATFORM_NOUNS)) + r")\b")

if __name__ == "__main__":
    main("_platform_noun_offered", MAY_TOUCH)
