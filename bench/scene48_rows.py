"""Every tuning row that tells a scene in a clause of its own before asking (`asked_clause`),
the scene told by the asker ("we serve llama on vllm, ...", "i run ...", "our ..."): what it got,
which step of `SearchIndex._search` decided it, and whether the card's entry is named only in
the scene (issue #12, task "scene48"; passing41's cause table row 4, how47's row 6).

    python bench/scene48_rows.py [--slices dev,calib,...] > rows.tsv

Tuning slices only (held-out slices are refused). The steps are read by `bench/offer_causes.py`'s
wrapping (nothing in `bot/search` changes for it). One tab-separated line per row: slice, kind,
verdict (right / wrong / offer-first / offer-3 / offer-miss / none / off-card / off-ok), where
the card's entry is named (scene / question / both / unnamed / -), the card or the first offers,
the expected entry, the step, the names written, the meaning's first three, scene | question.
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
from bot.search.query import asked_clause  # noqa: E402

# the asker tells the scene: "we", "our", "i", "my", "i'm", "us"
TOLD = re.compile(r"\b(?:we|our|ours|us|i|im|i'm|my|mine|ive|i've|were|we're)\b")


def main() -> int:
    _, slices, index = offer_causes.traced_start(argparse.ArgumentParser(), TUNING)
    ids = [e.id for e in index.entries]
    for case, result, steps in traced_cases(index, slices, offer_causes.trace):
        split = asked_clause(case.query)
        if split is None or not TOLD.search(split[0]):
            continue
        scene, question = split
        fused = next((s for s in steps if s["step"] == "fuse"), {})
        written = sorted(ids[e] for e in fused.get("written", ()))
        meaning = ",".join(f"{ids[e]}:{c:.2f}" for e, c in fused.get("similar", [])[:3])
        offers = [s.id for s in result.suggestions[:3]]
        verdict = row_verdict(case, result)
        where = "-"
        if result.entry is not None:
            card = ids.index(result.entry.id)
            in_scene = card in {f.entry for f in index._names_in(scene)}
            in_question = card in {f.entry for f in index._names_in(question)}
            where = {
                (True, False): "scene",
                (False, True): "question",
                (True, True): "both",
                (False, False): "unnamed",
            }[(in_scene, in_question)]
        got = result.entry.id if result.entry else "offers:" + ",".join(offers)
        step = card_cause(steps, result, index) if result.entry else cause(steps)
        print(
            "\t".join(
                (
                    case.slice,
                    case.kind,
                    verdict,
                    where,
                    got,
                    case.expected or "-",
                    step,
                    ",".join(written),
                    meaning,
                    f"{scene} | {question}",
                )
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
