"""Rows where a written name stands in a contrast frame (task contrast73, issue #12): what the
thing is not, is without, is compared against, or replaces ("far slower than a graphics card",
"rlhf without a reward model", "a dpo variant that doesn't need a reference model"). Broad
frames around each writing, read on the text just before and just after the name; each row
labelled with today's answer (the card, right or wrong, whether it is the framed name; or an
offer) and, with --rule, what the search gives with `SearchIndex._contrast_name_offered` (its
absence is today's answer). Tuning slices only (dev.., everyday.., chat) unless --all, which
prints per-slice totals only for held-out slices:

    OPENBLAS_NUM_THREADS=1 python bench/contrast73_table.py [--all]"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.relevance_report import SETS  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.relevance import OFF_TOPIC_KINDS, load_cases  # noqa: E402

HELD_OUT = ("everyday-check", "chat-check", "calib")
# Broad frames: the text just before the name ends with one, or just after starts with one
BEFORE = {
    "without": r"\b(without|w/o|minus|sans)( (a|an|the|any|my|its))?$",
    "no-need": r"\b(no need for|(do not|dont|doesnt|don't|doesn't|does not|never|no longer"
    r"|not) (need|needs|require|requires|use|uses|using)|no more|free of|skip|skips|skipping"
    r"|drop|drops|dropping|ditch|get rid of)( (a|an|the|any|my|its))?$",
    "instead": r"\b(instead of|rather than|in place of|replace|replaces|replaced|replacing"
    r"|alternative to|alternatives to|successor to|swap|swapped)( (a|an|the|my|its))?$",
    "unlike": r"\b(unlike|not like|different from|differs from|compared to|compared with"
    r"|vs|versus|against)( (a|an|the|my|its))?$",
    "than": r"\bthan( (a|an|the|my|its|plain|regular|normal|ordinary|vanilla|classic|old))?$",
    "not": r"\b(not|isnt|isn't|is not|aren't|arent|nor|no)( (a|an|the|just|really|quite))?$",
    "like-but": r"\blike( (a|an|the))?$",
}
AFTER = {
    "free": r"^(-| )?(free|less)\b",
    "level": r"^(-| )?(level|sized|size|class|scale|grade)\b",
    "but": r"^ but\b",
}


def frames(before: str, after: str) -> list[str]:
    tail = before[-40:].rstrip()
    found = [k for k, p in BEFORE.items() if re.search(p, tail)]
    found += [k for k, p in AFTER.items() if re.search(p, after[:20])]
    if "like-but" in found and not re.search(r"\bbut\b", after[:80]):
        found.remove("like-but")
    if "but" in found and "like-but" not in found:
        found.remove("but")
    return found


MAY_TOUCH = re.compile(
    r"\b(without|w/o|minus|sans|need|needs|require|requires|no|not|isnt|isn't|nor|free|less"
    r"|skip|skips|drop|ditch|rid|instead|rather|place|replace|replaces|replaced|replacing"
    r"|alternative|alternatives|successor|swap|unlike|different|differs|compared|vs|versus"
    r"|against|than|like|level|sized|size|class|scale|grade|more|use|uses|using)\b"
)


def label(case, result) -> str:  # type: ignore[no-untyped-def]
    card = result.entry.id if result.entry else None
    if case.kind in OFF_TOPIC_KINDS or case.expected is None:
        return f"OFFCARD {card}" if card else "ok-nocard"
    if card is None:
        shown = [s.id for s in result.suggestions[:3]]
        return "offer(asked %s)" % (
            shown.index(case.expected) + 1 if case.expected in shown else "-"
        )
    return ("right " if case.accepts(card) else "WRONG ") + card


def main() -> None:
    everything = "--all" in sys.argv
    index = SearchIndex.build(load_glossary())
    ids = [e.id for e in index.entries]
    totals: Counter[tuple[str, str]] = Counter()
    for name in SETS:
        for case in load_cases(ROOT / "tests" / "search" / name):
            held = case.slice.startswith("test") or case.slice in HELD_OUT
            if held and not everything:
                continue
            if not MAY_TOUCH.search(case.query.lower()):
                continue
            result = index.search(case.query)
            text = result.normalized_query
            framed = []
            for found in index._names_in(text):
                kinds = frames(text[: found.start], text[found.end :])
                if kinds:
                    framed.append((ids[found.entry], kinds))
            if not framed:
                continue
            card = result.entry.id if result.entry else None
            on_card = any(name == card for name, _ in framed)
            verdict = label(case, result)
            totals[
                (
                    case.slice if not held else "held",
                    verdict.split()[0] + (" framed-card" if on_card else ""),
                )
            ] += 1
            if held:
                continue
            print(
                case.slice,
                verdict + (" [framed card]" if on_card else ""),
                f"expected={case.expected}",
                framed,
                repr(case.query[:200]),
                sep="\t",
                flush=True,
            )
    for key, count in sorted(totals.items()):
        print(*key, count, sep="\t")


if __name__ == "__main__":
    main()
