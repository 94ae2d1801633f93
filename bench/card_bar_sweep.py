"""The semantic-only card bar against wrong cards, on the calibration slice (and dev beside it).

    python bench/card_bar_sweep.py

For each CARD_COSINE, CARD_LEAD (bot/search/fusion.py) and SEMANTIC_MARGIN
(bot/search/ranking.py): cards, right cards and wrong cards per slice, on-topic and off-topic
together. Never run on test or test2. Last line JSON.
"""

from __future__ import annotations

import functools
import itertools
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex, fusion  # noqa: E402
from bot.search import index as search_index  # noqa: E402
from bot.search.relevance import evaluate, load_cases  # noqa: E402

SLICES = ("dev", "calib")
COSINES = (0.75, 0.82)
LEADS = (0.2,)
MARGINS = (5.0, 8.0, 11.0, 15.0)  # score lead a semantic card needs over the next entry


def main() -> int:
    index = SearchIndex.build(load_glossary())
    assert index.semantic is not None
    encoder = index.semantic.encoder
    encoder.encode_query = functools.lru_cache(maxsize=None)(encoder.encode_query)  # type: ignore[method-assign]
    cases = [c for c in load_cases(ROOT / "tests/search/relevance_blind.tsv") if c.slice in SLICES]
    rows = []
    for cosine in COSINES:
        for lead, margin in itertools.product(LEADS, MARGINS):
            fusion.CARD_COSINE, fusion.CARD_LEAD = cosine, lead
            search_index.SEMANTIC_MARGIN = margin
            row: dict[str, float] = {"card_cosine": cosine, "card_lead": lead, "margin": margin}
            for part in SLICES:
                report = evaluate(index, [c for c in cases if c.slice == part])
                on, off = report.total(off_topic=False), report.total(off_topic=True)
                cards = on.cards + off.cards
                row[f"{part}_cards"] = cards
                row[f"{part}_right"] = on.direct
                row[f"{part}_wrong"] = on.wrong + off.wrong
                row[f"{part}_wrong_rate"] = round((on.wrong + off.wrong) / max(cards, 1), 4)
            rows.append(row)
            print(
                f"cos {cosine:.2f} lead {lead:.1f} margin {margin:.0f}  "
                + "  ".join(
                    f"{p}: right {row[f'{p}_right']:.0f} wrong {row[f'{p}_wrong']:.0f} "
                    f"of {row[f'{p}_cards']:.0f} ({row[f'{p}_wrong_rate']:.1%})"
                    for p in SLICES
                ),
                flush=True,
            )
    print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
