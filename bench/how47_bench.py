"""The cost of `QuestionRules.acted_on` (task how47) on the path it runs: questions through the
whole search, the rule on against the rule stubbed out, in the same process and rounds
interleaved (the machine is shared: each query's best of `ROUNDS` replays).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/how47_bench.py

The queries are this task's probe rows (tests/search/how47_probes.tsv): "how / why does X verb
..." questions, X asked about, X a doer or a method with a named object, and the same shape off
the glossary. The last line is one JSON object.
"""

from __future__ import annotations

from rule_cost import nothing, probe_queries, report, rule_cost

from bot.search.questions import QuestionRules

if __name__ == "__main__":
    queries = probe_queries("how47_probes.tsv")
    report(rule_cost("acted_on", queries, nothing, owner=QuestionRules), "questions")
