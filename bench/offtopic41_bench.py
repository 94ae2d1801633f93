"""The cost of `SearchIndex._offered_off_field` (task offtopic41) on the path it runs: texts the
rest of the search answers with choices and no card, through the whole search, the rule on against
the rule stubbed out, in the same process and rounds interleaved (the machine is shared: each
query's best of `ROUNDS` replays).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/offtopic41_bench.py

The queries are this task's probe rows (tests/search/offtopic41_probes.tsv) and none40's
(none40_probes.tsv): loose descriptions, near-field off-topic texts. The last line is one JSON
object.
"""

from __future__ import annotations

from rule_cost import no_change, probe_queries, report, rule_cost

if __name__ == "__main__":
    queries = probe_queries("offtopic41_probes.tsv", "none40_probes.tsv")
    row = rule_cost(
        "_offered_off_field",
        queries,
        no_change,
        lambda found: found.entry is None and bool(found.suggestions),
    )
    report(row, "queries", "offered choices without the rule")
