"""The semantic-only card bar against wrong cards, on the calibration slice (and dev beside it).

    python bench/card_bar_sweep.py

For each (CARD_COSINE, CARD_LEAD) pair: cards, right cards and wrong cards per slice, on-topic
and off-topic together. The bar in `bot/search/semantic/fusion.py` is the cheapest pair whose
wrong cards on calib are at most 1 in 100 cards. Never run on test or test2. Last line JSON.
"""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.relevance import evaluate, load_cases  # noqa: E402
from bot.search.semantic import fusion  # noqa: E402

SLICES = ("dev", "calib")
COSINES = (0.75, 0.78, 0.80, 0.82, 0.85, 0.88)
LEADS = (0.2, 0.3, 1.0)  # 1.0: the lead rule off


def main() -> int:
    index = SearchIndex.build(load_glossary())
    assert index.semantic is not None
    encoder = index.semantic.encoder
    encoder.encode_query = functools.lru_cache(maxsize=None)(encoder.encode_query)  # type: ignore[method-assign]
    cases = [c for c in load_cases(ROOT / "tests/search/relevance_blind.tsv") if c.slice in SLICES]
    rows = []
    for cosine in COSINES:
        for lead in LEADS:
            fusion.CARD_COSINE, fusion.CARD_LEAD = cosine, lead
            row: dict[str, float] = {"card_cosine": cosine, "card_lead": lead}
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
                f"cos {cosine:.2f} lead {lead:.1f}  "
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
