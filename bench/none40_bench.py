"""The cost of `SearchIndex._described_nothing` (task none40) on the path it runs: texts the rest
of the search answers with nothing at all, through the whole search, the rule on against the rule
stubbed out, in the same process and rounds interleaved (the machine is shared: each query's best
of `ROUNDS` replays).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/none40_bench.py

The queries are this task's probe rows (tests/search/none40_probes.tsv) and the texts its tests
search: loose descriptions, near-field off-topic queries. The last line is one JSON object.
"""

from __future__ import annotations

from rule_cost import no_change, probe_queries, report, rule_cost

TESTED = [
    "my TLA+ assignment has a spec line 'every request eventually gets a reply'. "
    "what kind of property is that one",
    "npm install just hangs forever",
    "yarn install hangs forever on ci",
]

if __name__ == "__main__":
    queries = probe_queries("none40_probes.tsv") + TESTED
    row = rule_cost("_described_nothing", queries, no_change, lambda found: found.status == "none")
    report(row, "queries", "answered nothing without the rule")
