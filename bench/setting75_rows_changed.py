"""The what-if of `SearchIndex._product_setting_read` (task setting75), through
bench/step_whatif.py: the step acts only where the text writes a product that only one tool or
model's phrasings name (`SearchIndex._products`: "llava", "gpt-4o", "midjourney"), so only the
rows writing one are searched with and without it.

    OPENBLAS_NUM_THREADS=1 python bench/setting75_rows_changed.py [--slices dev29,test37]
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.step_whatif import main
from bot.glossary import load_glossary
from bot.search import SearchIndex


def products() -> re.Pattern[str]:
    """Any product `_products` holds, as typed: its words apart by spaces or hyphens."""
    grams = SearchIndex.build(load_glossary(), semantic=False)._products
    spelled = (r"[\s-]+".join(map(re.escape, gram.split())) for gram in grams)
    return re.compile(r"(?<![\w-])(?:" + "|".join(sorted(spelled)) + r")(?![\w-])")


if __name__ == "__main__":
    main("_product_setting_read", products())
