"""The what-if of `SearchIndex._contrast_name_offered` (task contrast73), through
bench/step_whatif.py: the step acts only where the text writes one of `contrast_only`'s words, so
only the rows writing one are searched with and without it."""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.step_whatif import main

MAY_TOUCH = re.compile(
    r"\b(?:without|w/o|no|skip|skips|skipping|skipped|drop|drops|dropping|dropped|ditch|ditches"
    r"|ditching|rid|need|needs|require|requires|instead|rather|place|replace|replaces|replaced"
    r"|replacing|alternative|alternatives|unlike|compared|different|differs|than|like|level"
    r"|sized|class|grade)\b"
)

if __name__ == "__main__":
    main("_contrast_name_offered", MAY_TOUCH)
