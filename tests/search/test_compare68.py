"""Probes for task compare68 (issue #12 part 3, continued from compare67): the comparison shapes
compare67 left ("X/Y which one", "X > Y?", a bare "X or Y?", the other side written with a typo or
as a short description, "is X a Y or ...", "X and Y, ..."), in chat voices: X's card and Y its
first offer. A side that is no entry gets nothing invented, and a comparison of things from
neighbouring fields ("react vs vue", "postgres vs mysql") no card. compare68_probes.tsv says when
and how it was written."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, the_asked_card
from .test_compare25 import first_carded_second_offered

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here. compare68's change (the sign read as "vs", "is X a Y or
# ...", "X is the same as Y", "X and Y, <question>", a mistyped other side offered) passed 23 of
# them and tuning, but cost held-out cards (test2, test6: "is X a Y or ..."): reverted by the
# rule (bench/results/semantic.md, compare68).
_READ_BY_THE_REVERTED_CHANGE = {
    # "X/Y which": two names slashed are no comparison (`normalize` drops "/")
    "rag/fine-tuning which one",
    "adam/adamw which one should i use",
    "bm25/semantic search which is better",
    "prefill/decode which one is memory bound",
    "gpu/tpu which one for training",
    "json/jsonl which one for logs",
    "sft/rlhf which comes first",
    "vllm/llama.cpp which one for my laptop",
    "hnsw / lsh which one",
    "lol adam/sgd which one do u guys use",
    # "X > Y?": the sign is dropped, the two names read as one text
    "adamw > adam?",
    "rag > fine-tuning?",
    "hybrid search > bm25?",
    "gguf > safetensors?",
    "flash attention > paged attention?",
    "dpo > ppo? 🤔",
    "cross-encoder > dual encoder for reranking?",
    # a typo on the other side: no card of its own (offers only), so not offered
    "dpo vs rlfh which one?",
    # "is X a (kind of) Y or ...": no comparison pattern
    "is lora a kind of fine-tuning or something else?",
    "is rag a form of semantic search or its own thing",
    "is adamw just adam or a different optimizer",
    "hnsw is a vector database or an algorithm?",
    # "X and Y, <question>": "and" is no comparison word
    "bm25 and semantic search, which one first?",
    "gguf and safetensors, what's the deal",
    "ppo and grpo, how are they different",
}
STILL_FAILING = {
    *_READ_BY_THE_REVERTED_CHANGE,
    # "diffusion" is no name outright (Diffusion Model), so the first side is not carded
    "diffusion or flow matching?",
    # the other side a description, or a plural acronym that ties two names ("tpus": TPU or
    # Throughput), or both sides typos with no card between them: nothing offered
    "rag vs that finetuning thing",
    "adam vs that adamw thing",
    "vllm vs lama.cpp",
    "gpu vs tpus",
    # no card for the whole text, so no first side carded
    "temperature and top-p, do i change both?",
    "which is better for my use case, gguf or safetensors",
    "ppl keep saying dpo > rlhf now, true?",
    # a clause opening "honestly", and "team X or team Y": the first side is no name outright
    "honestly prefix caching vs kv cache, whats the diff",
    "team top-k or team top-p? 😂",
    # "react" is ReAct's name, though beside "vue" or "angular" it is the web framework (as
    # compare67's "react vs vue")
    "react or vue for a dashboard?",
    "react vs angular which one is better for my use case",
}
PROBES = ProbeFile("compare68_probes.tsv", STILL_FAILING)

PAIRED = ("slash", "greater", "or", "described", "isa", "and", "chat")

test_a_comparison_cards_the_first_and_offers_the_second = PROBES.test(
    *PAIRED, expect=first_carded_second_offered
)
test_a_side_that_is_no_entry_leaves_the_other_carded = PROBES.test(
    "notentry", expect=the_asked_card
)
test_an_off_topic_comparison_is_no_card = PROBES.test("offtopic", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted(
    {
        "slash": 10,
        "greater": 7,
        "or": 12,
        "described": 12,
        "isa": 6,
        "and": 6,
        "chat": 10,
        "notentry": 6,
        "offtopic": 18,
    }
)
