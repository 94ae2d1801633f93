"""Own probes for chat the relevance slices do not cover well (none written from a slice).

    python bench/question_probes.py [-v]

`bench/probes/everyday.txt`: entry names in their everyday sense ("oven temperature", "board
game tokens"): each should get no card. `bench/probes/topic_first.tsv`: chat that names its
topic first without asking ("lora for adapting a 13b model ..."): the expected card, and for
"X vs Y" the other entry offered. `bench/probes/descriptions_led_by_a_name.txt`: descriptions
that start with a broader entry's name ("attention that only looks at a sliding window ..."):
that entry's card is wrong. `bench/probes/offtopic_first.txt`: chat from neighbouring fields
that names its topic first ("terraform state drift in ..."): each should get no card. `-v` lists
the probes answered wrongly. Last line JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402

PROBES = ROOT / "bench" / "probes"


def _lines(name: str) -> list[list[str]]:
    text = (PROBES / name).read_text(encoding="utf-8")
    return [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    index = SearchIndex.build(load_glossary())
    everyday_cards = 0
    for (query,) in _lines("everyday.txt"):
        result = index.search(query)
        everyday_cards += result.entry is not None
        if args.verbose and result.entry is not None:
            print(f"everyday card  {query!r} -> {result.entry.id} ({result.strategy})")
    right = wrong = offered = 0
    topic = _lines("topic_first.tsv")
    for query, expected, *other in topic:
        result = index.search(query)
        got = result.entry.id if result.entry else None
        right += got == expected
        wrong += got is not None and got != expected
        shown = [s.id for s in result.suggestions[:3]]
        offered += bool(other) and other[0] in shown
        if args.verbose and got != expected:
            choices = ", ".join(shown)
            print(
                f"topic {'WRONG' if got else 'miss '} {query!r} -> {got} [{choices}] want {expected}"
            )
    led = _lines("descriptions_led_by_a_name.txt")
    led_cards = 0
    for query, first_named in led:
        result = index.search(query)
        if result.entry is not None and result.entry.id == first_named:
            led_cards += 1
            if args.verbose:
                print(f"led by a name {query!r} -> {first_named}")
    offtopic = _lines("offtopic_first.txt")
    offtopic_cards = 0
    for (query,) in offtopic:
        result = index.search(query)
        offtopic_cards += result.entry is not None
        if args.verbose and result.entry is not None:
            print(f"off-topic card  {query!r} -> {result.entry.id} ({result.strategy})")
    pairs = sum(1 for row in topic if len(row) > 2)
    figures = {
        "everyday": len(_lines("everyday.txt")),
        "everyday_cards": everyday_cards,
        "led_descriptions": len(led),
        "offtopic_first": len(offtopic),
        "offtopic_first_cards": offtopic_cards,
        "led_by_first_name_cards": led_cards,
        "topic_first": len(topic),
        "topic_right": right,
        "topic_wrong": wrong,
        "pairs": pairs,
        "pairs_offered": offered,
    }
    print(json.dumps(figures, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
