"""Probes for task opener53: chat openers before the question (issue #12 item 3, "strip what
people say around a term"): "wait so", "ok so", "sorry one more q", "so like", "btw", "quick q:",
"hmm", "lol ok", "nvm i mean", "also,", "follow up:", "real talk", or a pasted JSON, YAML or log
line, then a question naming the asked entry. "card": its card. "none": an off-topic message in
the same shapes: no card. opener53_probes.tsv was written from entry titles and general
knowledge, before reading the entries' text, any slice's rows or the search code."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on main 6a9933a6: strict expected failures, so one that starts passing fails
# the suite and is moved out of here. Seven are offered first without a card: the chat words
# before the question keep the name from being read as asked; the eighth is a log line pasted
# before the question, whose end nothing marks. Dropping the words (`chat._PREAMBLE`) carded all
# but the log line, and was measured and reverted (held out one right card more, two wrong more;
# bench/results/semantic.md "opener53").
STILL_FAILING: set[str] = {
    "wait so how does lora work",
    "nvm i mean what's paged attention",
    "real talk what is rlhf",
    "wait so what is the softmax for",
    "ok so like what's an epoch",
    "sorry dumb follow up, what is the learning rate",
    '{"model": "llama-3-8b", "temperature": 0.2} what does temperature do',
    "RuntimeError: CUDA error: device-side assert triggered what is cuda",
}
PROBES = ProbeFile("opener53_probes.tsv", STILL_FAILING)

test_an_opened_question_gets_its_card = PROBES.test("card", expect=the_asked_card)
test_an_opened_off_topic_message_gets_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"card": 38, "none": 8})
