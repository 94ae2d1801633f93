"""One row per tuning query: what the search knew of its first choice when it decided card, offer
or none, and whether that first choice is right (issue #12, task "rerank21").

    python bench/card_table.py [--slices dev,calib,...] [--out table.tsv]

Tuning slices only (held-out slices are refused). It reads the steps of `SearchIndex._search`
that `bench/offer_causes.py` wraps (nothing in `bot/search` changes for it): the lexical pool before
the meaning is folded in, the pool `_decide` reads, the meaning's ten entries and cosines, the
name asked about, the names written, `_decide`'s answer and the final one (after the rules that
turn a card into an offer). A row is "in scope" where the meaning ran and a first choice
exists; only those have `features` for a learned decision. No query words or entry ids are
features: only scores, ranks, cosines and the shape of the text. `tools/fit_card_model.py` fits
on it.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import offer_causes  # noqa: E402
from bench.offer_causes import TUNING, traced_cases  # noqa: E402
from bench.relevance_report import HELD_OUT  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.fusion import OFF_DOMAIN_COSINE  # noqa: E402
from bot.search.query import is_question  # noqa: E402
from bot.search.ranking import Candidate  # noqa: E402
from bot.search.relevance import OFF_TOPIC_KINDS  # noqa: E402

NAME_STRATEGIES = frozenset(
    {"exact", "id", "server-alias", "alias", "acronym", "expansion", "plural", "prefix", "fuzzy"}
)
FEATURES = (
    "main_card",  # the rules' own answer was a card
    "demoted",  # `_decide` gave a card, a later rule turned it into an offer
    "by_meaning",  # the first choice's strategy: the meaning
    "by_description",  # ... a description
    "by_mention",  # ... a name written in a sentence (match-term)
    "by_name",  # ... a name, alias, prefix or typo
    "score",  # the first choice's fused score / 100
    "lead",  # its lead over the runner-up in the fused pool / 10 (clipped -2..4)
    "cos1",  # the meaning's first cosine
    "gap12",  # ... its lead over the second
    "cos_first",  # the first choice's cosine (the meaning's last if unranked)
    "meaning_first",  # the first choice is the meaning's first
    "meaning_rank",  # its rank in the meaning's ten / 10 (1.0: unranked)
    "lex_score",  # its lexical score before the meaning / 100 (0: not pooled)
    "lexical_first",  # it led the lexical pool before the meaning
    "lex_top",  # the lexical pool's best score / 100
    "written",  # its name is written in the text
    "n_written",  # names written (at most 3)
    "asked_any",  # a name is asked about
    "asked_first",  # ... and it is the first choice
    "question",  # question-shaped
    "log_words",  # log(1 + words)
    "far",  # the meaning finds every entry far (under OFF_DOMAIN_COSINE)
    "long_description",
    "runner_by_meaning",  # the fused runner-up's strategy is the meaning
    "runner_meaning_first",  # the runner-up is the meaning's first
    "cos_margin",  # the first choice's cosine over the best other ranked cosine
    "gap13",  # the meaning's first cosine over its third
    "close",  # other pooled entries within 5 of the first choice's score (at most 3)
)


@dataclass(frozen=True, slots=True)
class Evidence:
    """What `SearchIndex._search` knew when the rules answered (the meaning having run)."""

    similar: Sequence[tuple[int, float]]  # the meaning's entries and cosines, best first
    lexical: Mapping[int, Candidate]  # the pool before the meaning was folded in
    fused: Mapping[int, Candidate]  # ... after, as `_decide` read it
    asked: tuple[int, int] | None  # the name asked about (`fusion.asked_about`)
    written: Collection[int]  # the entries whose names the text writes
    long_description: bool
    decided_card: bool  # `_decide` gave a card (a later rule may have turned it into an offer)
    question: bool
    words: int


def features(first: int, strategy: str, card: bool, evidence: Evidence) -> tuple[float, ...]:
    """The evidence for `first` (a position), the answer's first choice found by `strategy`,
    in `FEATURES` order; `card`: the rules gave it a card."""
    similar, before, after = evidence.similar, evidence.lexical, evidence.fused
    cosines = dict(similar)
    ranks = {e: r for r, (e, _) in enumerate(similar)}
    cos1 = similar[0][1] if similar else 0.0
    cos2 = similar[1][1] if len(similar) > 1 else 0.0
    cos3 = similar[2][1] if len(similar) > 2 else 0.0
    mine = after[first].score if first in after else 0.0
    others = [c.score for e, c in after.items() if e != first]
    runner = max(
        ((e, c) for e, c in after.items() if e != first), key=lambda i: i[1].rank, default=None
    )
    lexical = before.get(first)
    lex_ranked = sorted(before.items(), key=lambda i: i[1].rank, reverse=True)
    cos_first = cosines.get(first, similar[-1][1] if similar else 0.0)
    asked = evidence.asked
    return (
        float(card),
        float(evidence.decided_card and not card),
        float(strategy == "semantic"),
        float(strategy == "description"),
        float(strategy == "match-term"),
        float(strategy in NAME_STRATEGIES),
        min(mine, 120.0) / 100,
        max(-2.0, min(4.0, (mine - max(others, default=0.0)) / 10)),
        cos1,
        cos1 - cos2,
        cos_first,
        float(bool(similar) and similar[0][0] == first),
        ranks.get(first, 10) / 10,
        lexical.score / 100 if lexical else 0.0,
        float(bool(lex_ranked) and lex_ranked[0][0] == first),
        lex_ranked[0][1].score / 100 if lex_ranked else 0.0,
        float(first in evidence.written),
        float(min(3, len(evidence.written))),
        float(asked is not None),
        float(asked is not None and asked[0] == first),
        float(evidence.question),
        math.log1p(evidence.words),
        float(cos1 < OFF_DOMAIN_COSINE),
        float(evidence.long_description),
        float(runner is not None and runner[1].strategy == "semantic"),
        float(runner is not None and bool(similar) and similar[0][0] == runner[0]),
        cos_first - max((c for e, c in similar if e != first), default=0.0),
        cos1 - cos3,
        float(min(3, sum(1 for s in others if s >= mine - 5))),
    )


@dataclass(frozen=True, slots=True)
class Row:
    slice: str
    kind: str
    query: str
    in_scope: bool  # the meaning ran, a first choice exists
    main_card: bool
    right: bool  # the first choice is right (off-topic: never)
    features: tuple[float, ...]


def _evidence(steps: list[dict[str, Any]]) -> tuple[Any, Evidence] | None:
    """The first `_search` call's answer after `_unless_everyday` (read as its final one; the
    off-field rules after it are not) and its evidence, if the meaning ran: `offer_causes`'
    steps."""
    final = next(
        (s for s in steps if s["step"] == "rule" and s["rule"] == "_unless_everyday"), None
    )
    fused = next((s for s in steps if s["step"] == "fuse"), None)
    decided = next((s for s in steps if s["step"] == "decide"), None)
    if final is None or fused is None or decided is None:
        return None
    said = next(s for s in steps if s["step"] == "search")["query"]
    evidence = Evidence(
        fused["similar"],
        fused["before"],
        decided["by_entry"],
        fused.get("asked_about"),
        frozenset(fused.get("written", ())),
        bool(fused.get("long_description")),
        decided["card"],
        is_question(said),
        len(said.split()),
    )
    return final["gave"], evidence


def looked_at(index: SearchIndex, result: Any, evidence: Evidence) -> tuple[float, ...] | None:
    """The `features` of `result`'s first choice (None without one)."""
    card = result.entry is not None
    if card:
        first, strategy = result.entry, result.strategy
    elif result.suggestions:
        first, strategy = index.entry(result.suggestions[0].id), result.suggestions[0].strategy
    else:
        return None
    if first is None or strategy is None:
        return None
    return features(index.positions[first.id], strategy, card, evidence)


def table(slices: set[str]) -> list[Row]:
    """Every question, description and off-topic row of the tuning `slices` (and any other
    kind the sets hold), searched once with its trace read."""
    slices = slices - HELD_OUT
    offer_causes._wrap()
    index = SearchIndex.build(load_glossary())
    rows: list[Row] = []
    for case, result, steps in traced_cases(index, slices, offer_causes.trace):
        seen = _evidence(steps)
        values = looked_at(index, *seen) if seen else None
        right = case.kind not in OFF_TOPIC_KINDS and case.accepts(result.best_id)
        rows.append(
            Row(
                case.slice,
                case.kind,
                case.query,
                values is not None,
                result.entry is not None,
                right,
                values or (),
            )
        )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--slices", default=",".join(TUNING))
    parser.add_argument("--out", type=Path, default=None, help="write the table as TSV")
    args = parser.parse_args()
    rows = table(set(args.slices.split(",")))
    scoped = [r for r in rows if r.in_scope]
    print(f"rows {len(rows)}, in scope (the meaning ran) {len(scoped)}")
    print(
        f"in scope: right first {sum(r.right for r in scoped)}, cards {sum(r.main_card for r in scoped)}"
    )
    if args.out:
        lines = ["\t".join(("slice", "kind", "main_card", "right", *FEATURES))]
        for r in scoped:
            values = (f"{v:.4f}" for v in r.features)
            lines.append(
                "\t".join((r.slice, r.kind, str(int(r.main_card)), str(int(r.right)), *values))
            )
        args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
