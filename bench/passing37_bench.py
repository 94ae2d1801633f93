"""The cost of `SearchIndex._passing_placed` (task passing37) on the path it runs: short
questions through the whole search, the rule on against the rule stubbed out, in the same
process and rounds interleaved (the machine is shared: each query's best of `ROUNDS` replays).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/passing37_bench.py

The queries are this task's probe rows (tests/search/passing37_probes.tsv): short questions
that write a name, in passing or asked outright. The last line is one JSON object.
"""

from __future__ import annotations

from rule_cost import nothing, probe_queries, report, rule_cost

if __name__ == "__main__":
    row = rule_cost("_passing_placed", probe_queries("passing37_probes.tsv"), nothing)
    report(row, "short questions")
