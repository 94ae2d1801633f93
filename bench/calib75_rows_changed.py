"""The what-if of a refitted offer model (task calib75), through bench/step_whatif.py: the step
is `SearchIndex._offer_carded` with the refit's numbers and threshold (a JSON file written by
`calib73_fit.py RECORDS --save-model FILE`), "without" the step as main has it (the numbers in
`bot/search/calibration.py`). The step weighs every offer, so every row is a candidate; each is
searched once with the refit, and again with main's numbers only where the two decide apart.

    OPENBLAS_NUM_THREADS=1 python bench/calib75_rows_changed.py MODEL.json [--slices ...]
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.step_whatif import main
from bot.search import SearchIndex, calibration

MAY_TOUCH = re.compile("")  # every row: the step weighs every offer
NUMBERS = ("MEAN", "SCALE", "WEIGHTS", "BIAS", "OFFER_CARDED")


def refitted(model: dict[str, Any]):  # type: ignore[no-untyped-def]
    """`_offer_carded` as main has it, weighing with `model`'s numbers instead of main's."""
    step = SearchIndex._offer_carded
    shipped = {name: getattr(calibration, name) for name in NUMBERS}
    given = {name: tuple(v) if isinstance(v, list) else v for name, v in model.items()}

    def weighed(self, result, query):  # type: ignore[no-untyped-def]
        for name in NUMBERS:
            setattr(calibration, name, given[name])
        try:
            return step(self, result, query)
        finally:
            for name in NUMBERS:
                setattr(calibration, name, shipped[name])

    return step, weighed


if __name__ == "__main__":
    model = json.loads(Path(sys.argv.pop(1)).read_text())
    without, step = refitted(model)
    SearchIndex._offer_carded = step  # type: ignore[method-assign]
    main("_offer_carded", MAY_TOUCH, without)
