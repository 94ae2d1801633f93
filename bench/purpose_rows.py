"""Description rows that say what a thing is FOR, and what they got (issue 12, task purpose47).

    OPENBLAS_NUM_THREADS=1 python bench/purpose_rows.py [--slices dev,...] [--rows]

Tuning slices only (held-out slices are refused). A description row states a purpose when it
reads as what the thing is for or the problem it solves (`PURPOSE`: "so (that) ...", "to stop /
keep / make ...", "keeping ...", "instead of ...", "without ..."). For each such row and for the
other description rows: right card, wrong card, no card with the right entry first, in the first
three, further or not offered; with the right entry's rank and cosine in the meaning's ten, the
meaning's first, and the description stage's score for the right entry before the meaning is
folded in. Reads the steps by `bench/offer_causes.py`'s wrapping; nothing in `bot/search` changes.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import offer_causes  # noqa: E402
from bot.search import SearchIndex  # noqa: E402

TUNING = offer_causes.TUNING
PURPOSE = re.compile(
    r"\bso (that|the|it|i|we|you|our|my|they|your|a|an|its|people|users)\b"
    r"|\b(in order )?to (stop|keep|avoid|prevent|reduce|cut|save|make|let|get|help|speed|lower"
    r"|catch|check|fix|spot|find|track|handle|deal|protect|shrink|fit)\b"
    r"|^(keeping|making|stopping|preventing|reducing|cutting|saving|letting|getting|helping"
    r"|avoiding|catching|checking|giving|turning|teaching|spotting|finding|tracking|protecting"
    r"|shrinking|squeezing|speeding|lowering)\b"
    r"|\binstead of\b|\bwithout (having|needing|paying|retraining|losing|changing)\b"
    r"|\b(used|meant|there) (for|to)\b|\b(for|from) (keeping|making|stopping|preventing|avoiding)\b"
)


def writes_title(index: SearchIndex, case) -> bool:  # type: ignore[no-untyped-def]
    """Whether the text writes a word of the right entry's title (its first five letters)."""
    title = index.entries[index.positions[case.expected]].title.lower()
    words = [w[:5] for w in re.findall(r"[a-z0-9]+", title) if len(w) > 2]
    text = re.findall(r"[a-z0-9]+", case.query.lower())
    return any(t.startswith(w) for w in words for t in text)


def outcome(case, result) -> str:  # type: ignore[no-untyped-def]
    if result.entry is not None:
        return "right card" if case.accepts(result.entry.id) else "wrong card"
    shown = [s.id for s in result.suggestions]
    if shown and case.accepts(shown[0]):
        return "offered first"
    if any(case.accepts(s) for s in shown[:3]):
        return "offered 2nd-3rd"
    if any(case.accepts(s) for s in shown):
        return "offered later"
    return "offered nothing right" if shown else "nothing"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", action="store_true")
    args, slices, index = offer_causes.traced_start(parser, TUNING)
    counts: dict[tuple[bool, bool], Counter[str]] = {
        (p, t): Counter() for p in (True, False) for t in (True, False)
    }
    rows: list[str] = []
    for case, result, steps in offer_causes.traced_cases(index, slices, offer_causes.trace):
        if case.kind != "description" or case.expected is None:
            continue
        purpose = bool(PURPOSE.search(case.query.lower()))
        got = outcome(case, result)
        titled = writes_title(index, case)
        counts[purpose, titled][got] += 1
        if not purpose:
            continue
        fuse = next((s for s in steps if s["step"] == "fuse"), None)
        similar = fuse["similar"] if fuse else []
        right = index.positions.get(case.expected)
        rank = next((i + 1 for i, (e, _) in enumerate(similar) if e == right), None)
        cosine = dict(similar).get(right) if right is not None else None
        first = f"{index.entries[similar[0][0]].id} {similar[0][1]:.2f}" if similar else "-"
        before = fuse["before"].get(right) if fuse else None
        lexical = f"{before.score:.0f} {before.strategy}" if before else "-"
        card = result.entry.id if result.entry else "-"
        offers = ",".join(s.id for s in result.suggestions[:3]) or "-"
        rows.append(
            f"{got}\t{'title' if titled else 'no title'}\t{case.slice}\t{case.expected}\t"
            f"{rank or '-'}\t{'-' if cosine is None else f'{cosine:.2f}'}\t{first}\t{lexical}\t"
            f"{card}\t{offers}\t{case.query}"
        )
    for (purpose, titled), found in counts.items():
        total = sum(found.values())
        name = (
            f"{'purpose' if purpose else 'other'}, {'a title word' if titled else 'no title word'}"
        )
        print(f"{name} descriptions: {total}")
        for got, n in found.most_common():
            print(f"  {got}\t{n}\t{n / total:.0%}")
    if args.rows:
        print(
            "outcome\ttitle\tslice\texpected\tmeaning rank\tcosine\tmeaning first\tlexical\tcard\toffers\tquery"
        )
        print("\n".join(sorted(rows)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
