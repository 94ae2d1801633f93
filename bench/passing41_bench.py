"""The cost of `SearchIndex._describing_placed` (task passing41) on the path it runs:
questions through the whole search, the rule on against the rule stubbed out, in the same
process and rounds interleaved (the machine is shared: each query's best of `ROUNDS` replays).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/passing41_bench.py

The queries are this task's probe rows (tests/search/passing41_probes.tsv): short questions
that write a name, in passing or asked outright, and the descriptions closed by "what's it
called" of tests/search/test_passing41.py, where the rule places names. The last line is one
JSON object.
"""

from __future__ import annotations

from rule_cost import nothing, probe_queries, report, rule_cost

DESCRIBED = [  # the rule's own shape: it finds names and places them
    "that tool people use for running gguf files on a macbook, what's it called again?",
    "stable diffusion 3 swapped classic diffusion for some straight-line flow matching trick, "
    "what is it?",
    "vram usage grows and grows as the conversation gets longer even for one user, what's "
    "eating it?",
]

if __name__ == "__main__":
    queries = probe_queries("passing41_probes.tsv") + DESCRIBED
    report(rule_cost("_describing_placed", queries, nothing), "questions")
