"""Task bar57: what a lower bar for the unnamed leader (`fusion.unnamed_lead`) would add. Every
tuning row is searched with the shipped bar and with the loosest one measured (cosine 0.60, lead
0.08); a row whose answer moves is printed with its verdict both ways, the meaning's cosine and
lead, and what the words found (the entry's rank, score and strategy in the lexical pool before
the meaning is folded in), the text's cosine to the field and its field / everyday words. A row
moves at a bar between the two exactly where its own cosine and lead clear it (the lift reads
nothing but the row's own meaning and pool), so one pass gives every bar's table.

    python bench/bar57_dump.py [--slices dev,dev2,...] > FILE

Tuning slices only (held-out slices are refused)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bot.search.fusion as fusion  # noqa: E402
from bench.offer_causes import row_verdict  # noqa: E402
from bench.relevance_report import HELD_OUT  # noqa: E402
from bench.semantic_models import tuning_cases  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.everyday import _everyday_count, content_words, field_cosine  # noqa: E402
from bot.search.query import normalize, without_chat_markup  # noqa: E402
from bot.search.ranking import Pool  # noqa: E402

TUNING = (
    *("dev", "calib", "chat", "everyday", "everyday2", "everyday3"),
    *(f"dev{n}" for n in range(2, 20)),
)
LOOSE = (0.60, 0.08)
SHIPPED = (fusion.UNNAMED_COSINE, fusion.UNNAMED_LEAD)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--slices", default=",".join(TUNING))
    slices = set(parser.parse_args().slices.split(",")) - HELD_OUT
    index = SearchIndex.build(load_glossary())
    assert index.semantic is not None
    cases = tuning_cases(slices)
    seen: list[tuple[float, float, int, float, str, float]] = []
    lead_of = fusion.unnamed_lead

    def recorded(similar: Sequence[tuple[int, float]], pool: Pool) -> bool:
        fired = lead_of(similar, pool)
        if fired:
            ranked = [entry for entry, _ in pool.ranked()]
            first = similar[0][0]
            found = pool.by_entry[first]
            top = pool.ranked()[0][1].score
            lead = similar[0][1] - similar[1][1]
            seen.append(
                (similar[0][1], lead, ranked.index(first), found.score, found.strategy, top)
            )
        return fired

    fusion.unnamed_lead = recorded  # type: ignore[assignment]
    print(
        "slice\texpected\tshipped\tloose\tcosine\tlead\tlex_rank\tlex_score\tstrategy\t"
        "lex_top\tfield_cos\tfield_words\teveryday\tquery"
    )
    for case in cases:
        answers = []
        for bar in (SHIPPED, LOOSE):
            fusion.UNNAMED_COSINE, fusion.UNNAMED_LEAD = bar
            seen.clear()
            result = index.search(case.query)
            shown = (
                result.entry.id if result.entry else ",".join(s.id for s in result.suggestions[:3])
            )
            answers.append((row_verdict(case, result), shown, list(seen)))
        if answers[0][:2] == answers[1][:2]:
            continue
        cosine, lead, rank, score, strategy, top = (
            answers[1][2][-1] if answers[1][2] else (0.0, 0.0, -1, 0.0, "-", 0.0)
        )
        text = normalize(without_chat_markup(case.query))
        words = content_words(text)
        vector = index.semantic.encoder.encode_query(text)
        fields = sum(index.field_word(w) for w in words)
        everyday = _everyday_count(words, index.glossary_word)
        print(
            f"{case.slice}\t{case.expected}\t{answers[0][0]} {answers[0][1]}\t"
            f"{answers[1][0]} {answers[1][1]}\t{cosine:.3f}\t{lead:.3f}\t{rank}\t{score:.1f}\t"
            f"{strategy}\t{top:.1f}\t{field_cosine(index.semantic, vector):.3f}\t{fields}\t"
            f"{everyday}\t{case.query}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
