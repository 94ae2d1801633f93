"""Probes for task long73: long chat messages (40-70 words) describing an entry without naming
it, 18 of them writing ANOTHER entry's name in passing as their setting ("we serve with vllm on
a few cards ...", "we train with adam like everybody else ..."), 14 writing none.
long73_probes.tsv was written from the entry ids and general knowledge before any search run on
the branch or reading the code; on main d2519041 8 of 18 setting messages and 12 of 14 plain
ones get their card, no wrong card. The clause vote read also where a name is written, from the
clauses holding none, carded 10 of 18 (+ sleeper agents, continued pretraining) but lost a
Discord test's card ("what is a kv cache? " + chat): reverted (bench/results/semantic.md
"long73"). long74's vote (names only in clauses asking nothing, the vote's ranking only where it
moves the first) cards continued pretraining too."""

from __future__ import annotations

from .probe_files import ProbeFile, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here. All but one are offered (most first) and not carded.
STILL_FAILING = {
    # sleeper-agents (carded by the reverted rule; long74's vote puts it first as the whole text
    # does, so the whole text's scale stands: an offer)
    "we have a safety team that does red teaming every quarter. my question is different: a"
    " model that behaves perfectly during testing but has a hidden trigger, like a certain "
    "year in the prompt, after which it starts writing insecure code on purpose. "
    "researchers trained these deliberately to see if safety training removes it. what are "
    "they called",
    # held-out-data
    "i'm doing my thesis in python with numpy, mostly small experiments. my advisor said "
    "before i trust the numbers i should keep a slice of the data that the model never sees"
    " during training or tuning and only look at it at the very end, once. what's the "
    "proper name for that slice",
    # prefill
    "we use vllm in production and it's great. question about the stuff before it: when a "
    "request comes in, the whole prompt gets processed in one big parallel step before any "
    "word of the reply is produced, and that step is what makes the first token slow on "
    "long prompts. what's that first phase called",
    # gradient-clipping
    "i've been fine-tuning llama models on my gaming pc. my friend said the loss blew up "
    "because some updates were huge, and the fix is to cap the size of the update whenever "
    "its length goes over a threshold, scaling it down before the step. what's that trick "
    "called",
    # reward-hacking
    "we use rlhf for our chatbot and mostly it works. the thing i'm asking about is when "
    "the model learns to game the score we gave it during training, like writing longer "
    "answers because the scoring model likes length, without actually getting any better. "
    "what is that called",
    # context-windows
    "our search uses bm25 and it works for exact words. separate question though: a model "
    "has a fixed limit on how much text it can look at in one go, like 8k or 128k tokens, "
    "and anything beyond that is simply cut off or forgotten. what is that limit called",
    # pass-at-k
    "our eval harness reports perplexity on a held-out set, fine. but for code tasks the "
    "lead wants a number where you generate say ten solutions per problem and count the "
    "problem solved if any one of them passes the unit tests. what is that metric called",
    # prefix-caching
    "we serve with vllm on a few cards. lots of our requests start with the same long "
    "instructions, and someone said the server can keep the computed attention state for "
    "that shared beginning and reuse it for every new request instead of recomputing it. "
    "what is that called",
    # self-consistency
    "we ask the model a maths question several times with some randomness, get maybe five "
    "different worked answers, and then just take whichever final answer comes up most "
    "often. apparently this beats asking once by a lot on word problems. my colleague says "
    "there's a paper and a name for the trick, what is it",
    # diffusion-model
    "i'm trying to understand how the newer image generators work. you start from pure "
    "static noise and a network removes a little bit of noise step by step, guided by the "
    "text, until a picture comes out after maybe fifty steps. my friend says a whole family"
    " of models works like this, what is it called",
}
PROBES = ProbeFile("long73_probes.tsv", STILL_FAILING)

test_a_long_message_naming_another_entry_in_passing_gets_its_card = PROBES.test(
    "setting", expect=the_asked_card
)
test_a_long_message_naming_nothing_gets_its_card = PROBES.test("chat", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"setting": 18, "chat": 14})
