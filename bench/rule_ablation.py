"""What each of the search's decision rules earns on the tuning slices (task ablate54).

    OPENBLAS_NUM_THREADS=1 python bench/rule_ablation.py [--rules a,b] [--no-probes]

Each rule below changes a decision: a `SearchIndex` method that takes the decided result (or the
pool) and hands it on, changed or not, a `QuestionRules` rule that names a subject or None, an
agreement or veto of the fusion. Each has a stub that passes its input through unchanged. One
pass over the tuning slices (dev..dev18, calib, chat, everyday, everyday2, everyday3) with every
rule wrapped records which rows each rule changes (its output against its input); then, per
rule, only those rows are searched again, whole, with that rule stubbed (later rules may
interact), and the tuning figures' delta is counted as sums.py counts them: right cards, on-topic
wrong cards (description and question rows), off-topic cards. The same for the blind probe files
(tests/search/*_probes.tsv but the two relevance slices' files, whose check slices are held out):
how many probe rows each rule changes (card, status or first three offers). No held-out row is
searched. Last line JSON.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bot.search.fusion as fusion  # noqa: E402
import bot.search.index as index_module  # noqa: E402
from bench.semantic_models import tuning_cases  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex, SearchResult  # noqa: E402
from bot.search.questions import QuestionRules  # noqa: E402
from bot.search.relevance import Case  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))

TUNING = {f"dev{n}" for n in range(2, 19)} | {
    "dev",
    "calib",
    "chat",
    "everyday",
    "everyday2",
    "everyday3",
}
# relevance slices kept in probe form: their check slices are held out
NOT_PROBES = {"chat_style_probes.tsv", "everyday_probes.tsv"}
ON_TOPIC = ("description", "question")


@dataclass(frozen=True)
class Rule:
    name: str
    owner: Any  # the class or module whose attribute is the rule
    attr: str
    # how the rule's call passed its input through: "result" (arg 1 returned), "pool" (arg 1's
    # entries unchanged), "none" (returned None), "first" (arg 0 returned), "false", "asked"
    shape: str


def _method(name: str, shape: str) -> Rule:
    return Rule(name, SearchIndex, name.removeprefix("SearchIndex."), shape)


RULES: tuple[Rule, ...] = (
    # the decided result's rules, in the order `search` / `_search` apply them
    _method("SearchIndex._asked_over_setting", "result"),
    _method("SearchIndex._first_side_carded", "result"),
    _method("SearchIndex._plainly_described", "result"),
    _method("SearchIndex._neighbour_meant", "result"),
    _method("SearchIndex._narrower_offered", "result"),
    _method("SearchIndex._described_offered", "result"),
    _method("SearchIndex._tied_offered", "result"),
    _method("SearchIndex._place_offered", "result"),
    _method("SearchIndex._described_nothing", "result"),
    _method("SearchIndex._unless_everyday", "result"),
    _method("SearchIndex._asked_name_offered", "result"),
    _method("SearchIndex._unranked_off_field", "result"),
    _method("SearchIndex._offered_off_field", "result"),
    # the pool's rules: a setting's names capped, the meaning's first carded
    _method("SearchIndex._scene_placed", "pool"),
    _method("SearchIndex._passing_placed", "pool"),
    _method("SearchIndex._describing_placed", "pool"),
    _method("SearchIndex._pasted_placed", "pool"),
    # the meaning read from a part of the text
    Rule("index._unframed_agreeing", index_module, "_unframed_agreeing", "first"),
    Rule("index._asked_clause_agreeing", index_module, "_asked_clause_agreeing", "first"),
    Rule("index._pointed_back_at", index_module, "_pointed_back_at", "none"),
    Rule("index._described_past_names", index_module, "_described_past_names", "none"),
    # the question rules: a subject, or None
    *(
        Rule(f"QuestionRules.{name}", QuestionRules, name, "none")
        for name in (
            "leading",
            "agreed",
            "closing_aside",
            "acted_on",
            "more_specific",
            "slipped_subject",
            "_tagged",
            "_clause_subject",
            "_quoted",
            "_replied_to",
            "_done_by_name",
            "_carried_out",
            "_placed_in",
            "_together",
            "_subject",
        )
    ),
    # the fusion's agreements and veto
    Rule("fusion._described_instead", fusion, "_described_instead", "false"),
    Rule("fusion._written_first", fusion, "_written_first", "false"),
    Rule("index.asked_about", index_module, "asked_about", "asked"),
)


def _stub(rule: Rule) -> Callable[..., Any]:
    """The rule passing its input through: what the search does without it."""
    if rule.shape == "result":
        return lambda self, result, *args, **kwargs: result
    if rule.shape == "pool":
        return lambda *args, **kwargs: None
    if rule.shape == "none":
        return lambda *args, **kwargs: None
    if rule.shape == "first":
        return lambda similar, *args, **kwargs: similar
    if rule.shape == "false":
        return lambda *args, **kwargs: False
    # `asked_about` without its veto: the first name written
    return lambda written, similar: written[0] if written else None


def _traced(rule: Rule, original: Callable[..., Any], fired: set[str]) -> Callable[..., Any]:
    """`original`, noting in `fired` when a call changed what it was given."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        before = dict(args[1].by_entry) if rule.shape == "pool" else None
        out = original(*args, **kwargs)
        if rule.shape == "result":
            changed = out is not args[1] and out != args[1]
        elif rule.shape == "pool":
            changed = args[1].by_entry != before
        elif rule.shape == "none":
            changed = out is not None
        elif rule.shape == "first":
            changed = out is not args[0] and out != args[0]
        elif rule.shape == "false":
            changed = bool(out)
        else:
            changed = out != (args[0][0] if args[0] else None)
        if changed:
            fired.add(rule.name)
        return out

    return wrapper


def _score(case: Case, result: SearchResult) -> tuple[int, int, int]:
    """(right card, on-topic wrong card, off-topic card) as sums.py counts them."""
    card = result.entry.id if result.entry else None
    if case.expected is None:
        return 0, 0, int(case.kind == "offtopic" and card is not None and not case.accepts(card))
    if case.kind not in ON_TOPIC or card is None:
        return 0, 0, 0
    return (1, 0, 0) if case.accepts(card) else (0, 1, 0)


def _shown(result: SearchResult) -> tuple[object, ...]:
    """What a probe's expectations read: the card, the status, the first three offers."""
    card = result.entry.id if result.entry else None
    return result.status, card, tuple(s.id for s in result.suggestions[:3])


def _probe_queries() -> list[str]:
    queries: list[str] = []
    for path in sorted((ROOT / "tests" / "search").glob("*_probes.tsv")):
        if path.name in NOT_PROBES:
            continue
        with path.open(encoding="utf-8") as f:
            rows = [r for r in csv.reader(f, delimiter="\t") if r and not r[0].startswith("#")]
        queries.extend(r[1] for r in rows if len(r) > 1)
    return list(dict.fromkeys(queries))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rules", default="", help="only these rules (names as listed)")
    parser.add_argument("--no-probes", action="store_true")
    parser.add_argument("--limit", type=int, default=0, help="the first N rows only (a smoke run)")
    args = parser.parse_args()
    chosen = [r for r in RULES if not args.rules or r.name in args.rules.split(",")]
    cases = tuning_cases(TUNING)
    probes = [] if args.no_probes else _probe_queries()
    if args.limit:
        cases, probes = cases[: args.limit], probes[: args.limit]
    index = SearchIndex.build(load_glossary(), semantic=True)
    originals = {rule.name: getattr(rule.owner, rule.attr) for rule in chosen}

    def traced_pass(queries: list[str]) -> tuple[list[SearchResult], list[set[str]]]:
        results, fired = [], []
        for query in queries:
            seen: set[str] = set()
            for rule in chosen:
                setattr(rule.owner, rule.attr, _traced(rule, originals[rule.name], seen))
            try:
                results.append(index.search(query))
            finally:
                for rule in chosen:
                    setattr(rule.owner, rule.attr, originals[rule.name])
            fired.append(seen)
        return results, fired

    base, fired = traced_pass([c.query for c in cases])
    base_scores = [_score(c, r) for c, r in zip(cases, base, strict=True)]
    totals = [sum(s[i] for s in base_scores) for i in range(3)]
    probe_base, probe_fired = traced_pass(probes)
    print(f"tuning rows {len(cases)}: right / wrong / off-topic {totals}; probes {len(probes)}")
    table: dict[str, dict[str, Any]] = {}
    for rule in chosen:
        rows = [i for i, f in enumerate(fired) if rule.name in f]
        probe_rows = [i for i, f in enumerate(probe_fired) if rule.name in f]
        setattr(rule.owner, rule.attr, _stub(rule))
        try:
            delta = [0, 0, 0]
            for i in rows:
                now = _score(cases[i], index.search(cases[i].query))
                for k in range(3):
                    delta[k] += now[k] - base_scores[i][k]
            decided = sum(
                _shown(index.search(probes[i])) != _shown(probe_base[i]) for i in probe_rows
            )
        finally:
            setattr(rule.owner, rule.attr, originals[rule.name])
        table[rule.name] = {
            "fires": len(rows),
            "removed": delta,
            "probes_fired": len(probe_rows),
            "probes_changed": decided,
        }
        print(
            f"{rule.name:<38} fires {len(rows):>5}  removed: right {delta[0]:+d} wrong "
            f"{delta[1]:+d} off-topic {delta[2]:+d}  probes fired {len(probe_rows):>4} "
            f"changed {decided:>4}",
            flush=True,
        )
    print(json.dumps({"tuning": totals, "rows": len(cases), "probes": len(probes), "rules": table}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
