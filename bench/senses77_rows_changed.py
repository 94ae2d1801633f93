"""(Measured on commit d2b0163e, whose step this describes; the step was reverted after it, so
run it on that commit: bench/results/semantic.md, "senses77".) The what-if of task senses77's changes to `SearchIndex._other_sense_offered`, through
bench/step_whatif.py: main's step (`as_main`: offfield76's 38 entries' senses as
bot/search/other_senses.toml had them at d591e7e1, any "not" guarding, a rest of two words of
its own judged at `SENSE_LEAD`, one word not at all) against the checkout's (the senses read from
`Entry.other_senses`, 43 entries; "not" guarding only before a determiner, `senses.DENIED`; a
rest of one word judged at `senses.ONE_WORD_LEAD`). The step acts only on a card for an entry
with senses whose name the text writes, so only rows writing the first four letters of the
longest word of one of those entries' names are searched.

    OPENBLAS_NUM_THREADS=1 python bench/senses77_rows_changed.py [--slices ...] [--main PART ...]

`--main data|not|one` keeps that part of the checkout's step as main has it, to tell the parts'
rows apart: `data` the senses (main's 38), `not` the "not" guard, `one` the one-word rest. With
all three the two sides must agree on every row: the move of the senses into the glossary changes
nothing (the checkout's step reads main's senses then, as `Entry.other_senses`).
"""

from __future__ import annotations

import argparse
import math
import re
import subprocess
import sys
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bench.step_whatif as whatif
from bot.glossary import Glossary, load_glossary
from bot.search import SearchIndex, SearchResult, senses
from bot.search.index import _card_offered

MAIN = "d591e7e1"  # main before senses77: the senses beside the search code
ROOT = Path(__file__).resolve().parent.parent


def main_senses() -> dict[str, tuple[str, ...]]:
    """Main's senses by entry id, as `bot/search/other_senses.toml` had them."""
    text = subprocess.run(
        ["git", "show", f"{MAIN}:bot/search/other_senses.toml"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return {entry_id: tuple(table["senses"]) for entry_id, table in tomllib.loads(text).items()}


OLD = main_senses()


def as_main(self: SearchIndex, result: SearchResult) -> SearchResult:
    """`_other_sense_offered` as main has it (offfield76), on main's senses."""
    if result.entry is None or result.strategy is None:
        return result
    old = OLD.get(result.entry.id)
    if not old:
        return result
    entry = self.positions.get(result.entry.id)
    if entry is None or self._is_server_term(entry):
        return result
    text = result.normalized_query
    found = self._names_in(text)
    name = next((f for f in found if f.entry == entry), None)
    if name is None or any(f.entry != entry for f in found) or "not" in text.split():
        return result
    if not senses.says_enough(text, name.start, name.end):
        return result
    semantic = self.semantic
    if semantic is None or not senses.read_in_other_sense(
        semantic, old, entry, text, name.start, name.end, lambda: OLD.values()
    ):
        return result
    return _card_offered(result, result.entry, result.strategy)


def with_main_senses() -> Glossary:
    """The glossary with main's senses on its entries (the checkout's step reading them)."""
    glossary = load_glossary()
    entries = tuple(e.model_copy(update={"other_senses": OLD.get(e.id, ())}) for e in glossary)
    return Glossary(entries, glossary.sources)


def may_touch() -> re.Pattern[str]:
    """The first four letters of the longest word of each name of an entry with senses, on
    either side."""
    found: set[str] = set()
    for entry in load_glossary():
        if not (entry.other_senses or entry.id in OLD):
            continue
        for name in (entry.title, entry.acronym or "", *entry.aliases):
            words = re.findall(r"[a-z0-9]+", name.lower())
            if words:
                found.add(max(words, key=len)[:4])
    return re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, found))) + r")")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--main", action="append", default=[], choices=["data", "not", "one"])
    ours, rest = parser.parse_known_args()
    sys.argv[1:] = rest
    if "data" in ours.main:
        whatif.load_glossary = with_main_senses  # type: ignore[assignment]
    if "not" in ours.main:
        senses.DENIED = re.compile(r"\bnot\b")
    if "one" in ours.main:
        senses.ONE_WORD_LEAD = math.inf
    print("main's parts:", ",".join(ours.main) or "none", flush=True)
    whatif.main("_other_sense_offered", may_touch(), as_main)
