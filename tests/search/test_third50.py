"""Probes for task third50: a long text that names one entry as its setting and asks about
another (issue #12, "never a confident wrong card"). Each must give no card but the entry asked
about, and that entry as the card or among the first three offers. third50_probes.tsv was written
from entry titles and general knowledge, before reading the entries' text, any slice's rows or
the search code."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card_but_the_asked, the_asked_card_or_first_offers

# Probes that fail on main 2566aa9: strict expected failures, so one that starts passing fails
# the suite and is moved out of here. Both are cards for the setting's name (vLLM; AI Coding
# Agents), the entry asked about offered after it.
NO_WRONG_CARD_FAILING = {
    "while running vllm in production I keep seeing paged attention in the logs, how does it"
    " actually manage the memory for each request?",
    "our ai coding agent runs shell commands for users, why should it run inside a sandbox and"
    " what does the sandbox actually block?",
}
SHOWN_FAILING = NO_WRONG_CARD_FAILING

NO_WRONG = ProbeFile("third50_probes.tsv", NO_WRONG_CARD_FAILING)
SHOWN = ProbeFile("third50_probes.tsv", SHOWN_FAILING)

test_a_setting_name_gives_no_wrong_card = NO_WRONG.test("setting", expect=no_card_but_the_asked)
test_the_asked_entry_is_shown = SHOWN.test("setting", expect=the_asked_card_or_first_offers)
test_the_probe_file_is_whole = NO_WRONG.counted({"setting": 23})
