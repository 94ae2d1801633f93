"""The cost of `SearchIndex._pasted_placed` (task written45) on the path it runs: texts
pasting a log or error line through the whole search, the rule on against the rule stubbed
out, in the same process and rounds interleaved (the machine is shared: each query's best of
`ROUNDS` replays).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/written45_bench.py

The queries are this task's probe rows (tests/search/written45_probes.tsv), every one opening
with a pasted line, so `pastes_log` holds and the names are read for labels. The last line is
one JSON object.
"""

from __future__ import annotations

from rule_cost import nothing, probe_queries, report, rule_cost

if __name__ == "__main__":
    queries = probe_queries("written45_probes.tsv")
    report(rule_cost("_pasted_placed", queries, nothing), "pasted")
