"""Probes for task compare68 (issue #12 part 3, continued from compare67): the comparison shapes
compare67 left ("X/Y which one", "X > Y?", a bare "X or Y?", the other side written with a typo or
as a short description, "is X a Y or ...", "X and Y, ..."), in chat voices: X's card and Y its
first offer. A side that is no entry gets nothing invented, and a comparison of things from
neighbouring fields ("react vs vue", "postgres vs mysql") no card. compare68_probes.tsv says when
and how it was written."""

from __future__ import annotations

import pytest

from bot.glossary.keys import normalize
from bot.search import SearchIndex
from bot.search.query import asked_clause, compared_sides, query_core, spelled_versus

from .probe_files import ProbeFile, no_card, the_asked_card
from .test_compare25 import first_carded_second_offered

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING = {
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
    # ">" read as "vs" only before "which" or "?" in its own clause, a few words on
    "ppl keep saying dpo > rlhf now, true?",
    # a clause opening "honestly", and "team X or team Y": the first side is no name outright
    "honestly prefix caching vs kv cache, whats the diff",
    "team top-k or team top-p? 😂",
    # "is X a (kind of) Y or ...": not read as a comparison (compare68's reading of it lost two
    # held-out cards; compare68b took it out), so no pair
    "is lora a kind of fine-tuning or something else?",
    "is rag a form of semantic search or its own thing",
    "is adamw just adam or a different optimizer",
    "hnsw is a vector database or an algorithm?",
}
PROBES = ProbeFile("compare68_probes.tsv", STILL_FAILING)

# "X is a (kind of) Y or ..." / "is X a Y or ..." read as a comparison (compare68's part 2) turned
# two held-out cards wrong (test2, test6, found by their totals with each part off), so compare68b
# ships compare68 without it; a narrower form (Y a name outright, "or" right after it) is left
IS_A_KIND_NOT_READ = pytest.mark.xfail(
    strict=True, reason="'X is a (kind of) Y or ...' is not read as a comparison (compare68b)"
)

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


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("gguf/safetensors which one", "gguf vs safetensors which one"),
        ("hnsw / lsh which one", "hnsw vs lsh which one"),
        ("vllm/llama.cpp which one for my laptop", "vllm vs llama.cpp which one for my laptop"),
        ("rlhf > dpo?", "rlhf vs dpo?"),
        (
            "cross-encoder > dual encoder for reranking?",
            "cross-encoder vs dual encoder for reranking?",
        ),
        # no comparison: no "which" (or "?" for ">") in the sign's clause, a few words on
        ("tokens/sec for vllm?", "tokens/sec for vllm?"),
        (
            "i only have thumbs up/thumbs down on single answers, not pairs, which method?",
            "i only have thumbs up/thumbs down on single answers, not pairs, which method?",
        ),
        ("ppl keep saying dpo > rlhf now, true?", "ppl keep saying dpo > rlhf now, true?"),
        # not between two words: "i/o", "w/", a link, three names (a list), a quote's "> "
        ("i/o which one", "i/o which one"),
        ("lora w/ rank 8, which alpha?", "lora w/ rank 8, which alpha?"),
        ("https://arxiv.org/abs which one?", "https://arxiv.org/abs which one?"),
        ("gpu/tpu/npu which", "gpu/tpu/npu which"),
        ("> rag is slow\nwhich part?", "> rag is slow\nwhich part?"),
        ("if x > 0 which branch?", "if x > 0 which branch?"),
    ],
)
def test_a_sign_between_two_names_is_read_as_vs(text: str, read: str) -> None:
    assert spelled_versus(text) == read


@pytest.mark.parametrize(
    ("query", "pair"),
    [
        # "X is a (kind of) Y or ...", "is X a Y or ...": not read (compare68b took the reading
        # out: it lost two held-out cards in compare68, by test2/test6 totals)
        pytest.param(
            "peft is a kind of fine-tuning or a replacement of it?",
            ("peft", "fine tuning"),
            marks=IS_A_KIND_NOT_READ,
        ),
        pytest.param(
            "jailbreak is a prompt injection or different category",
            ("jailbreak", "prompt injection"),
            marks=IS_A_KIND_NOT_READ,
        ),
        pytest.param(
            "is adamw just adam or a different optimizer",
            ("adamw", "adam"),
            marks=IS_A_KIND_NOT_READ,
        ),
        # "X is the same as Y", "X and Y, <question>", "X and Y is the same ..."
        ("decoding strategy is the same as sampling or not", ("decoding strategy", "sampling")),
        (
            "kv cache and prefix caching, is one just the other saved longer",
            ("kv cache", "prefix caching"),
        ),
        ("checkpoint and weights is the same file or not", ("checkpoint", "weights")),
        # a pronoun is no side: the text names one thing only
        ("is this the same as 'ai safety' or narrower? like what its makers meant", None),
        # "X and Y" alone, with no question after it, is no comparison
        ("attention and mlp", None),
    ],
)
def test_a_kind_or_a_pair_side_by_side_is_compared(
    query: str, pair: tuple[str, str] | None
) -> None:
    normalized = normalize(query)
    core = query_core(normalized)
    assert compared_sides(query, normalized, core, asked_clause(query)) == pair


@pytest.mark.parametrize(
    ("query", "offered"),
    [
        ("dpo vs rlfh which one?", ["rlhf"]),
        # a word that only holds a name is no typo of it: nothing invented
        ("pytorch vs tensorflow which one?", []),
    ],
)
def test_a_mistyped_other_side_offers_the_name_it_misspells(
    bundled_index: SearchIndex, query: str, offered: list[str]
) -> None:
    result = bundled_index.search(query)
    assert [s.id for s in result.suggestions[:1]] == offered, result
