"""The cost of `SearchIndex._question_agreed` (task question49) on the path it runs: questions
through the whole search, the rule on against the rule stubbed out, in the same process and
rounds interleaved (the machine is shared: each query's best of `ROUNDS` replays).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/question49_bench.py

The queries are this task's probe rows (tests/search/question49_probes.tsv): chat-style
questions writing an entry's name, describing one without it, and the same shapes off the
glossary. The last line is one JSON object.
"""

from __future__ import annotations

from rule_cost import nothing, probe_queries, report, rule_cost

if __name__ == "__main__":
    queries = probe_queries("question49_probes.tsv")
    report(rule_cost("_question_agreed", queries, nothing), "chat-style questions")
