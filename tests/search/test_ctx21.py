"""Probes for task ctx21: a name written as context or setting is not the question's subject.
ctx21_probes.tsv was written from the entry titles and general knowledge before reading the
search code, the entries it targets or dev10's rows."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, the_asked_card, the_asked_card_or_first_offers

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
# Ten failed on main before short21's phrasings (which fixed the ai agents one and broke the
# claude code one). ctx21's rule (`_scene_named_offered`, measured and reverted: semantic.md)
# turned the agent json one into an offer; none of the others. offcard47's rule does too.
STILL_FAILING = {
    # ("our agent runs nightly jobs ... always return valid json?": passes since offcard47, the
    # AI Agents card the meaning does not rank, for a text leaning away from the field, offered
    # with Structured Outputs second)
    # no card; the meaning reads the memory, not how it is made smaller (Unified Memory, VRAM)
    "i'm loading qwen in llama.cpp on my macbook. how does it squeeze a 14b model into 16gb?",
    # no card; neither the whole nor the question alone puts Reranking in its first three
    "our rag bot pulls chunks from confluence. how do we put the best five chunks on top before"
    " the llm sees them?",
    # ("we keep our embeddings in pgvector ...": passes since asked40, Vector Databases'
    # phrasings no longer the index's, HNSW carded)
    # a Fine-Tuning card: a context with no asker and no setting word reads as a topic, which
    # the question is about (`told_scene`), though the question alone puts WSD first at 0.70
    "fine-tuning llama 3 with adamw on 8 gpus. why do we ramp the learning rate up slowly for"
    " the first few hundred steps?",
    # a Forward Pass card by the question's own meaning (0.78): no name of the context's wins
    "deepseek v3 is what we serve. why do only a few parts of the network run for each token?",
    # offered, the whole message's first (Positional Encoding) ahead; the question alone puts
    # Residual Stream first, but offering both firsts cost dev10 two offers (semantic.md, ctx21)
    "in the transformer, what does each layer add its output back into so the signal passes"
    " straight through?",
    # ("in the attention layer, what stops a token ...": passes since passing37, the setting's
    # Attention set behind the meaning's firsts, Causal Mask offered second)
    # failing before ctx21 too: offered, Latent Diffusion first (the name is written twice)
    "the diffusion model in our app is slow. how does a diffusion model turn noise into a picture?",
    # ("claude code is editing my repo ...": passes since asked40, no card, Prompt Injection
    # offered first)
}
PROBES = ProbeFile("ctx21_probes.tsv", STILL_FAILING)

test_a_context_name_is_not_the_card = PROBES.test("context", expect=the_asked_card_or_first_offers)
test_a_setting_name_is_not_the_card = PROBES.test("setting", expect=the_asked_card_or_first_offers)
test_a_name_written_as_the_subject_gets_its_card = PROBES.test("subject", expect=the_asked_card)
test_everyday_context_and_question_get_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted(
    {"context": 12, "setting": 10, "subject": 10, "none": 4}
)
