"""The card bar for a shorter description the meaning ranks first (issue 12, task bar49).

    OPENBLAS_NUM_THREADS=1 python bench/bar49_rows.py [--slices dev,...] [--rows] > FILE

Tuning slices only (held-out slices are refused). Every row is searched twice in one process:
with `fusion.short_lead` shut (main's search) and wide open (any cosine from `OPEN_COSINE`, any
lead, agreement or not, any field cosine). Where the wide-open rule fires on a row, the row's
features are kept (the meaning's first, cosine and lead over the second, the description stage's
score and rank for that entry and whether it is the stage's clear first, the text's cosine to the
field) with both outcomes; a grid of bars (cosine and lead, agreement's cosine, field floor) is then
read off exactly: a row's outcome under a bar is the wide-open one where the bar fires, main's
elsewhere. Also a table of the description rows without a card on main, by what the stages say.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.offer_causes import TUNING  # noqa: E402
from bench.relevance_report import HELD_OUT, SETS  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex, fusion  # noqa: E402
from bot.search import index as index_module  # noqa: E402
from bot.search.relevance import OFF_TOPIC_KINDS, Case, load_cases  # noqa: E402
from bot.search.results import SearchResult  # noqa: E402

OPEN_COSINE = 0.4
seen: list[dict[str, Any]] = []


def _wrap() -> None:
    fuse = index_module.fuse

    def traced(pool, similar, **options):  # type: ignore[no-untyped-def]
        before = dict(pool.by_entry)
        ranked = pool.ranked()
        fuse(pool, similar, **options)
        if not seen and options.get("short_field") is not None and similar:
            first, cosine = similar[0]
            order = [e for e, _ in ranked]
            found = before.get(first)
            seen.append(
                {
                    "first": first,
                    "cosine": cosine,
                    "lead": cosine - similar[1][1] if len(similar) > 1 else cosine,
                    "agree": first == options.get("described_first"),
                    "desc": found.score if found and found.strategy == "description" else None,
                    "desc_rank": order.index(first) + 1 if first in order else None,
                    "field": options["short_field"],
                    "similar": list(similar),
                }
            )

    index_module.fuse = traced


def verdict(case: Case, result: SearchResult) -> str:
    offers = [s.id for s in result.suggestions[:3]]
    if case.kind in OFF_TOPIC_KINDS:
        return "off-card" if result.entry else "off-ok"
    if result.entry is not None:
        return "right" if case.accepts(result.entry.id) else "wrong"
    if offers and case.accepts(offers[0]):
        return "offer-first"
    if any(case.accepts(o) for o in offers):
        return "offer-3"
    return "offer-miss" if offers else "none"


def opened(wide: bool) -> None:
    """The shorter description's bar wide open, or shut (main's search before bar49)."""
    cosine, floor = (OPEN_COSINE, -1.0) if wide else (2.0, 2.0)
    fusion.SHORT_COSINE, fusion.SHORT_LEAD = cosine, floor
    fusion.AGREED_COSINE, fusion.SHORT_FIELD_COSINE = cosine, floor


def restore() -> None:
    fusion.SHORT_COSINE, fusion.SHORT_LEAD, fusion.AGREED_COSINE = CONFIGURED[:3]
    fusion.SHORT_FIELD_COSINE = CONFIGURED[3]


CONFIGURED = (
    fusion.SHORT_COSINE,
    fusion.SHORT_LEAD,
    fusion.AGREED_COSINE,
    fusion.SHORT_FIELD_COSINE,
)


def fires(row: dict[str, Any], cos: float, lead: float, agreed: float, field: float) -> bool:
    if row["field"] < field:
        return False
    if row["cosine"] >= cos and row["lead"] >= lead:
        return True
    return bool(row["agree"]) and row["cosine"] >= agreed


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--slices", default=",".join(TUNING))
    parser.add_argument("--rows", action="store_true")
    args = parser.parse_args()
    slices = set(args.slices.split(",")) - HELD_OUT
    _wrap()
    index = SearchIndex.build(load_glossary())
    rows: list[dict[str, Any]] = []
    uncarded: list[dict[str, Any]] = []
    for name in SETS:
        for case in load_cases(ROOT / "tests/search" / name):
            if case.slice not in slices or case.slice in HELD_OUT:
                continue
            opened(False)
            seen.clear()
            base = index.search(case.query)
            before = verdict(case, base)
            features = seen[0] if seen else None
            if case.kind == "description" and base.entry is None:
                uncarded.append({"case": case, "got": before, "f": features, "result": base})
            if features is None:
                continue
            opened(True)
            seen.clear()
            wide = index.search(case.query)
            after = verdict(case, wide)
            if after != before or (base.entry and wide.entry and base.entry.id != wide.entry.id):
                card = wide.entry.id if wide.entry else "-"
                rows.append(
                    {**features, "case": case, "before": before, "after": after, "card": card}
                )
    restore()
    print(f"== description rows without a card (bar shut, as on main): {len(uncarded)}")
    print(
        "right entry in the meaning's ten\trows\tfirst's cosine (median)\tlead >= 0.15\t"
        "agree\tagree at >= 0.65\tfield >= 0.2\tdescription stage ranks it first"
    )
    bands: dict[str, list[dict[str, Any]]] = {}
    other = 0
    for u in uncarded:
        f, case = u["f"], u["case"]
        if f is None:
            other += 1
            continue
        right = index.positions.get(case.expected or "")
        ranks = [e for e, _ in f["similar"]]
        rank = ranks.index(right) + 1 if right in ranks else 0
        band = (
            "first" if rank == 1 else "2nd-3rd" if rank in (2, 3) else "4th-10th" if rank else "-"
        )
        bands.setdefault(band, []).append(f)
    for band, fs in bands.items():
        cosines = sorted(f["cosine"] for f in fs)
        print(
            f"{band}\t{len(fs)}\t{cosines[len(cosines) // 2]:.2f}\t"
            f"{sum(f['lead'] >= 0.15 for f in fs)}\t{sum(f['agree'] for f in fs)}\t"
            f"{sum(f['agree'] and f['cosine'] >= 0.65 for f in fs)}\t"
            f"{sum(f['field'] >= 0.2 for f in fs)}\t{sum(f['desc_rank'] == 1 for f in fs)}"
        )
    print(
        f"not a shorter plain description (a question, a name asked, 20+ words, '?', a lexical "
        f"card): {other}"
    )
    print("== rows the wide-open rule changes (meaning's first carded where it fires)")
    print("before\tafter\tslice\tkind\tcard\tcosine\tlead\tagree\tdesc\tdesc_rank\tfield\tquery")
    for r in sorted(rows, key=lambda r: (r["after"], -r["cosine"])):
        c = r["case"]
        if args.rows or r["after"] in ("wrong", "off-card") or r["before"] == "right":
            print(
                f"{r['before']}\t{r['after']}\t{c.slice}\t{c.kind}\t{r['card']}\t{r['cosine']:.3f}\t"
                f"{r['lead']:.3f}\t{int(r['agree'])}\t{r['desc'] or 0:.1f}\t{r['desc_rank'] or '-'}\t"
                f"{r['field']:.3f}\t{c.query[:110]}"
            )
    print("== grid: cosine, lead, agreed cosine, field -> +right -right +wrong +off-topic")
    grid = []
    for cos, lead, agreed, field in itertools.product(
        (0.55, 0.6, 0.62, 0.65, 0.68, 0.7, 0.75),
        (0.05, 0.08, 0.1, 0.12, 0.15, 9.0),
        (0.45, 0.5, 0.55, 0.6, 0.65, 9.0),
        (-1.0, 0.1, 0.15, 0.2, 0.25),
    ):
        gain = lost = wrong = off = 0
        for r in rows:
            if not fires(r, cos, lead, agreed, field):
                continue
            gain += r["after"] == "right" and r["before"] != "right"
            lost += r["before"] == "right" and r["after"] != "right"
            wrong += (r["after"] == "wrong") - (r["before"] == "wrong")
            off += (r["after"] == "off-card") - (r["before"] == "off-card")
        grid.append((cos, lead, agreed, field, gain, lost, wrong, off))
    for g in grid:
        print("\t".join(str(x) for x in g))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
