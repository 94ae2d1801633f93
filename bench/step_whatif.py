"""A search step's what-if, the part every `bench/*_rows_changed.py` of this shape shares: every
relevance row a `SearchIndex` step could touch (its text matches the script's `may_touch`) is
searched once with the step, wrapped to see whether it changed the result, and once more without
it only where it did, so a step is measured on all slices in minutes where the whole report
takes most of an hour under load. Tuning rows that change are printed; held-out ones only counted
per slice (right / wrong / off-topic card / no card, + where the right entry is among the first
three offers; before -> after). Rows are read as the report reads them
(`bench.relevance_report.every_case`: rights follow `Case.accepts`).

    OPENBLAS_NUM_THREADS=1 python bench/NAME_rows_changed.py [--slices dev27,test35]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.relevance_report import every_case, shown_row_by_row
from bot.glossary import load_glossary
from bot.search import SearchIndex, SearchResult
from bot.search.relevance import OFF_TOPIC_KINDS, Case


def outcome(case: Case, result: SearchResult) -> str:
    card = result.entry.id if result.entry else None
    if case.kind in OFF_TOPIC_KINDS or case.expected is None:
        return "offcard" if card and not case.accepts(card) else "ok"
    if card is None:  # "nocard+": the right entry among the first three offers (card/3)
        return "nocard+" if any(case.accepts(s.id) for s in result.suggestions[:3]) else "nocard"
    return "right" if case.accepts(card) else "wrong"


def main(step_name: str, may_touch: re.Pattern[str]) -> None:
    """The what-if of `SearchIndex.<step_name>`, a step taking the result first and returning it
    (the same object) where it does nothing, over the rows whose lowered text `may_touch` finds."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--slices", default="", help="only these slices (default: all)")
    only = set(filter(None, parser.parse_args().slices.split(",")))
    index = SearchIndex.build(load_glossary())
    cases = [
        c
        for c in every_case()
        if (not only or c.slice in only) and may_touch.search(c.query.lower())
    ]
    print("candidate rows", len(cases), flush=True)
    step = getattr(SearchIndex, step_name)
    fired: list[bool] = []

    def watched(self, result, *rest):  # type: ignore[no-untyped-def]
        after = step(self, result, *rest)
        fired.append(after is not result)
        return after

    setattr(SearchIndex, step_name, watched)
    changed: Counter[tuple[str, str, str]] = Counter()
    for case in cases:
        fired.clear()
        ruled = index.search(case.query)
        if not any(fired):
            continue
        setattr(SearchIndex, step_name, lambda self, result, *rest: result)
        plain = index.search(case.query)
        setattr(SearchIndex, step_name, watched)
        before, after = outcome(case, plain), outcome(case, ruled)
        if before == after:
            continue
        if shown_row_by_row(case.slice):
            card = plain.entry.id if plain.entry else None
            print("tuning", case.slice, repr(case.query), card, before, "->", after, flush=True)
        changed[(case.slice, before, after)] += 1  # held out: per-slice totals only
    for key, count in sorted(changed.items()):
        print(*key, count)
    held: Counter[str] = Counter()
    for (name, before, after), count in changed.items():
        if not shown_row_by_row(name):
            held[before] -= count
            held[after] += count
    print("held out net:", dict(held))


# The what-if of a change one process cannot switch on and off (a module constant read as the
# index is built, a step of another shape), run twice: `--save FILE` by the one side,
# `--against FILE` by the other (bench/long71_rows_changed.py, long73's). Rows are keyed
# "n<TAB>slice<TAB>text", each (slice, card outcome, right among the card and first three
# offers, what else a changed tuning row prints).


def tally(rows: dict[str, Any]) -> dict[str, Counter[str]]:
    per: dict[str, Counter[str]] = {}
    for part, what, near, *_ in rows.values():
        c = per.setdefault(part, Counter())
        c[what] += 1
        c["card3"] += near
    return per


def line(c: Counter[str]) -> str:
    return f"{c['right']} / {c['wrong']} / {c['off']}, card/3 {c['card3']}"


def saved_run(
    rows: dict[str, Any],
    save: str | None,
    against: str | None,
    held: Callable[[str], bool],
    cut: int,
    each_held_slice: bool = False,
) -> None:
    """Save this run's `rows`, and compare them with the saved run `against`: tuning rows that
    changed (their text cut at `cut`), the changes counted (held-out slices as one), then each
    tuning slice's totals that changed (`each_held_slice`: the held-out ones' too) and both
    groups' totals, before -> after."""
    if save:
        Path(save).write_text(json.dumps(rows))
    print("rows", len(rows))
    if not against:
        return
    before = json.loads(Path(against).read_text())
    changed: Counter[tuple[str, str, str]] = Counter()
    for key, (part, what, near, *seen) in rows.items():
        was = before[key]
        if (was[1], was[2]) != (what, near):
            if not held(part):
                text = key.split("\t")[2][:cut]
                print("tuning", part, repr(text), was[1:3], "->", [what, near], *seen)
            changed[
                (
                    "held" if held(part) else part,
                    f"{was[1]}{'+3' if was[2] else ''}",
                    f"{what}{'+3' if near else ''}",
                )
            ] += 1
    for change, count in sorted(changed.items()):
        print(*change, count)
    old, new = tally(before), tally(rows)
    groups: dict[str, Counter[str]] = {"tuning": Counter(), "held": Counter()}
    ogroups: dict[str, Counter[str]] = {"tuning": Counter(), "held": Counter()}
    for part in new:
        g = "held" if held(part) else "tuning"
        groups[g].update(new[part])
        ogroups[g].update(old[part])
        if old[part] != new[part] and (each_held_slice or not held(part)):
            print(part, line(old[part]), "->", line(new[part]))
    for g in groups:
        print(g, line(ogroups[g]), "->", line(groups[g]))
