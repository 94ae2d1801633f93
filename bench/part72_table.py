"""The frames of carded tuning questions whose card's name is written (task part72, issue #12):
how many right and wrong cards each reading of "a part or mechanism of the written name is
asked" holds. Reads the records of `bench/wrong72_table.py --dump FILE` (tuning slices only:
dev..dev26, everyday, everyday2, everyday3, chat):

    OPENBLAS_NUM_THREADS=1 python bench/wrong72_table.py --dump FILE
    python bench/part72_table.py FILE [--rows]

The counts in bench/results/semantic.md ("part72") are this script's output."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.glossary import load_glossary  # noqa: E402
from bot.glossary.models import DOERS  # noqa: E402
from bot.search.query import normalize  # noqa: E402

# The broad frames read first (the written name's position not read)
BROAD = {
    "thing-in": r"\b(what|which)('s| is| are)? (the|this|that|a) (\w+ )?(thing|part|bit|piece"
    r"|object|component|layer|step|number|setting|function|network|mechanism|trick|measure"
    r"|curve|value|term|module|block)\b",
    "this-object": r"\bwhat( is|'s) (this|that) (\w+ )?(object|thing)\b",
    "kind-of": r"\bwhat (kind|type|sort) of \w+",
    "how-know": r"\bhow (does|do|did|is|can) (it|the |\w+).{0,30}\b(know|knows|work out"
    r"|figure out|figures out|decide|decides|tell|keep track|remember|choose|pick|handle|avoid"
    r"|stop|find|compute|calculate|get)\b",
    "uses-to": r"\bwhat (does|do) .{1,40} use (to|for|instead)\b",
    "the-part": r"\bthe \w+ (part|bit|piece)\b",
    "which-x": r"\bwhich (part|layer|component|piece|bit|curve|function|step|one|setting"
    r"|number)\b",
}
COMPARES = re.compile(r"\b(vs|versus|or|compared|difference|between)\b")
VERB = (
    r"(know|knows|work out|works out|figure out|figures out|decide|decides|tell|keep track"
    r"|remember|choose|pick|handle|deal with|avoid|stop|compute|calculate|encode|represent"
    r"|store|turn|squeeze|fit|get)"
)


def narrow(query: str, names: list[str]) -> str | None:
    """The narrow frames, the written name's place read: its subject ("how does X know"), or
    a part pointed at that is not the name ("the 70 part", not "the mlp part")."""
    text = normalize(query)
    if COMPARES.search(text):
        return None
    alt = "|".join(re.escape(n) for n in names)
    frames = {
        "how-subject": rf"\bhow (does|do|did|can|would) (the |a |an )?({alt})s? {VERB}\b",
        "this-object": r"\bwhat (is|s) (this|that) (\w+ )?(object|thing)\b",
        "kind-of": rf"\bwhat (kind|type|sort) of (?!({alt})\b)\w+ (does|did|do)\b",
        "the-part": rf"\bthe (?!({alt})\b)\w+ (part|bit|piece)\b",
        "thing-in": rf"\bwhat (is|s|are) the (\w+ ){{1,2}}(in|of|inside) (the |a )?({alt})\b",
        "uses-to": rf"\bwhat (does|do) (the |a )?({alt})s? use\b",
    }
    return next((k for k, p in frames.items() if re.search(p, text)), None)


def main() -> int:
    rows = [json.loads(line) for line in Path(sys.argv[1]).read_text().splitlines()]
    show = "--rows" in sys.argv
    entries = {e.id: e for e in load_glossary()}
    names = {
        i: sorted({normalize(n) for n in e.names if normalize(n)}, key=len, reverse=True)
        for i, e in entries.items()
    }
    written = [r for r in rows if r["written"] and r["verdict"] != "off"]
    print(
        "carded",
        Counter(r["verdict"] for r in rows),
        "name written",
        Counter(r["verdict"] for r in written),
    )

    def tally(label: str, rule: Callable[[dict[str, Any]], bool]) -> None:
        hit = [r for r in written if rule(r)]
        verdicts = Counter(r["verdict"] for r in hit)
        asked = sum(r["verdict"] == "wrong" and r["expected"] == r["neighbour"] for r in hit)
        print(
            f"right {verdicts['right']:4} wrong {verdicts['wrong']:3} (asked = neighbour {asked})  {label}"
        )
        for r in hit if show else ():
            print("   ", r["verdict"][0], r["card"], "|", r["expected"], "|", r["query"][:110])

    def broad(r: dict[str, Any]) -> bool:
        return any(re.search(p, r["query"].lower()) for p in BROAD.values())

    def close(r: dict[str, Any]) -> bool:
        nb = r["neighbour"]
        return bool(nb) and nb not in r["names"] and r["neighbour_gap"] >= -0.05

    for frame, pattern in BROAD.items():
        tally(f"broad {frame}", lambda r, p=pattern: re.search(p, r["query"].lower()) is not None)
    tally("broad, any", broad)
    tally(
        "broad, no comparison, unwritten related neighbour within 0.05",
        lambda r: broad(r) and not COMPARES.search(r["query"].lower()) and close(r),
    )
    tally("narrow, any kind", lambda r: narrow(r["query"], names[r["card"]]) is not None)
    tally(
        "narrow, any kind, the meaning's first not the card",
        lambda r: narrow(r["query"], names[r["card"]]) is not None and r["first"] != r["card"],
    )
    tally(
        "narrow, a tool or model's card",
        lambda r: (
            entries[r["card"]].kind in DOERS and narrow(r["query"], names[r["card"]]) is not None
        ),
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
