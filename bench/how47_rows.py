"""Every tuning row shaped "how / why do(es) / did X <verb> ...": what it got and which step of
`SearchIndex._search` decided it (issue #12, task "how47"; passing41's cause table row 3).

    python bench/how47_rows.py [--slices dev,calib,...] > rows.tsv

Tuning slices only (held-out slices are refused). The steps are read by `bench/offer_causes.py`'s
wrapping (nothing in `bot/search` changes for it). One tab-separated line per row: slice, kind,
verdict (right / wrong / offer-first / offer-3 / offer-miss / none / off-card / off-ok), the
card or the first offers, the expected entry, the step, the names written, the name asked, the
meaning's first three, the query.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import offer_causes  # noqa: E402
from bench.offer_causes import (  # noqa: E402
    TUNING,
    card_cause,
    cause,
    row_verdict,
    traced_cases,
)

SHAPE = re.compile(r"\b(?:how|why)\s+(?:do|does|did|doesn'?t|don'?t|didn'?t)\b", re.IGNORECASE)


def main() -> int:
    _, slices, index = offer_causes.traced_start(argparse.ArgumentParser(), TUNING)
    ids = [e.id for e in index.entries]
    for case, result, steps in traced_cases(index, slices, offer_causes.trace):
        if not SHAPE.search(case.query):
            continue
        fused = next((s for s in steps if s["step"] == "fuse"), {})
        written = ",".join(sorted(ids[e] for e in fused.get("written", ())))
        asked = fused.get("asked")
        asked_id = ids[asked[0]] if asked else "-"
        meaning = ",".join(f"{ids[e]}:{c:.2f}" for e, c in fused.get("similar", [])[:3])
        offers = [s.id for s in result.suggestions[:3]]
        verdict = row_verdict(case, result)
        got = result.entry.id if result.entry else "offers:" + ",".join(offers)
        step = card_cause(steps, result, index) if result.entry else cause(steps)
        print(
            "\t".join(
                (
                    case.slice,
                    case.kind,
                    verdict,
                    got,
                    case.expected or "-",
                    step,
                    written,
                    asked_id,
                    meaning,
                    case.query,
                )
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
