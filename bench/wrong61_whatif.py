"""First-order what-ifs for task wrong61 over `bench/wrong61_causes.py --dump FILE` (tuning rows
only): which cards two sharper conditions would turn into offers.

    python bench/wrong61_whatif.py FILE

G1, the name asked about (`SearchIndex._asked_name_offered`): a card for the name a question asks
about becomes an offer where the text has at least W words and the meaning's best other entry
is more than B above the card's cosine (today W 15, B 0.10). G2, a description card that stood
(`fusion.fuse`'s disagreement penalty): the meaning puts another entry first at cosine C or more,
G above the card's cosine. Each cell: right / wrong / off-topic cards it would turn into offers,
the rows whose right entry would then not be among the first three, and the wrong cards whose
right entry the meaning put first. A card changed here runs no later rule: first order only.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any


def right_in_three(row: dict[str, Any], first: str) -> bool:
    return any(e in row["right"] for e in [first, row["card"], *row["offers"]][:3])


def tally(rows: list[dict[str, Any]], moved: list[tuple[dict[str, Any], str]]) -> str:
    out: Counter[str] = Counter()
    for row, first in moved:
        out[row["verdict"]] += 1
        if row["verdict"] != "off-topic" and not right_in_three(row, first):
            out["lost3"] += 1
        if row["verdict"] == "wrong" and first in row["right"]:
            out["first"] += 1
    return (
        f"right -{out['right']} wrong -{out['wrong']} off-topic -{out['off-topic']}"
        f"  right not in 3 {out['lost3']}  wrong -> right offered first {out['first']}"
    )


def asked(rows: list[dict[str, Any]], words: int, behind: float) -> list[tuple[dict, str]]:
    moved = []
    for row in rows:
        if row.get("asked") != row["card"] or not row["decided"].startswith("asked-about"):
            continue
        cosines = dict(row["similar"])
        cosine = cosines.get(row["card"], row["similar"][-1][1])
        others = [(c, e) for e, c in row["similar"] if e != row["card"]]
        if row["words"] >= words and others and max(others)[0] - cosine > behind:
            moved.append((row, max(others)[1]))
    return moved


def described(rows: list[dict[str, Any]], floor: float, gap: float) -> list[tuple[dict, str]]:
    moved = []
    for row in rows:
        if not row["decided"].startswith("lexical score stood: description"):
            continue
        first, cosine = row["similar"][0]
        cosines = dict(row["similar"])
        if first == row["card"] or cosine < floor or row["card"] not in cosines:
            continue  # a description the meaning does not rank is penalised already
        if cosine - cosines[row["card"]] >= gap:
            moved.append((row, first))
    return moved


def main() -> int:
    lines = Path(sys.argv[1]).read_text().splitlines()
    rows = [json.loads(line) for line in lines if line]
    rows = [
        r for r in rows if r["kind"] in ("description", "question", "offtopic") and r.get("similar")
    ]
    for words in (0, 8, 10, 12, 15):
        for behind in (0.0, 0.03, 0.05, 0.08, 0.1):
            print(
                f"G1 words >= {words} behind > {behind}: {tally(rows, asked(rows, words, behind))}"
            )
    for floor in (0.5, 0.55, 0.6, 0.65):
        for gap in (0.0, 0.03, 0.05, 0.083, 0.1, 0.15):
            print(f"G2 cosine >= {floor} gap >= {gap}: {tally(rows, described(rows, floor, gap))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
