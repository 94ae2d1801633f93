"""Probes for chat preambles, second try (task preamble68, issue #12). A scene naming an entry,
then a question whose subject is a compound or description holding another entry's word ("the
token-by-token one", "an attention-free model"): never that word's card. And preamble67's kinds
in new voices: the question's name gets its card, a question naming nothing asks the preamble's
name, an off-topic preamble and question get no card. preamble68_probes.tsv was written from
titles.txt and general knowledge before re-reading the search code, the entries or any slice's
rows."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, not_the_written_card, the_asked_card

# Probes that still fail on this branch: strict expected failures, so one that starts passing
# fails the suite and is moved out of here.
STILL_FAILING = {
    # Measured and reverted (bench/results/semantic.md, "preamble68"): the "and" split, the
    # scene's names at rank 0 where the question writes its subject whole, and a bare name
    # alone as the asked clause's subject passed the perplexity and prefill probes here (and
    # nine of preamble67's), but held out had one more wrong card (test8).
    # a compound's first word read as the subject (as in "what is optimizer-state sharding"
    # alone, Optimizer): "token-by-token", "X-free", "X lens"
    "our vllm box shows two phases per request, which is the token-by-token one?",
    "reading about interpretability, what is the logit lens",
    "our eval team uses llm as a judge, what's the rubric-free pairwise thing",
    "been reading about diffusion, what is the noise-prediction-free objective, flow something?",
    "reading about diffusion models, what's the u-net-free backbone",
    # the scene's name carded or offered first: the question after "anyway", "wtf is", a colon
    # or a comma is not read as a clause whose name is asked
    "ok so my manager keeps saying transformers at standup, anyway what is a causal mask",
    "sorry if dumb q, we run llama.cpp at home, what does prefill mean",
    "been poking at diffusion models tonight and wtf is a u-net",
    # "what's the deal with it", "no clue what that is": the scene's name offered, no card
    "my friend won't shut up about speculative decoding, what's the deal with it?",
    "saw hnsw in a vector db doc and have no clue what that is",
}
PROBES = ProbeFile("preamble68_probes.tsv", STILL_FAILING)

test_a_compound_holding_an_entry_s_word_is_not_that_entry = PROBES.test(
    "compound", expect=not_the_written_card
)
test_the_question_s_name_gets_its_card_after_a_preamble = PROBES.test(
    "narrower", expect=the_asked_card
)
test_the_preamble_s_name_is_asked_when_the_question_names_none = PROBES.test(
    "self", expect=the_asked_card
)
test_an_off_topic_preamble_and_question_get_no_card = PROBES.test("offtopic", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted(
    {"compound": 35, "narrower": 10, "self": 4, "offtopic": 3}
)
